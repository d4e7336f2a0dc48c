/**
 * A loopback stand-in for the provider's download operations, in its document's shapes (no
 * `files`, no Idempotency-Key support): a catalog download is `created`, then `in_progress`,
 * then `success` with a `signed_url` to a file elsewhere (an archive, as the provider's may be).
 * Records each request; answers `GET /v0/indices` (the capability probe) with an empty list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderStub {
  readonly url: string;
  readonly requests: Array<{ method: string; url: string; body: string }>;
  close(): Promise<void>;
}

export async function startProviderStub(signedUrl: string): Promise<ProviderStub> {
  const requests: ProviderStub['requests'] = [];
  const reads = new Map<string, number>();
  let made = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      requests.push({ method: req.method ?? '', url, body: Buffer.concat(chunks).toString() });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url === '/v0/catalogs/download')
        return json(201, { id: `pv-dl-${++made}`, status: 'created' });
      const m = /^\/v0\/catalogs\/download\/([^/?]+)$/.exec(url);
      if (req.method === 'GET' && m) {
        const n = (reads.get(m[1]!) ?? 0) + 1;
        reads.set(m[1]!, n);
        return json(
          200,
          n === 1
            ? { id: m[1], status: 'in_progress' }
            : { id: m[1], status: 'success', signed_url: signedUrl },
        );
      }
      if (url.startsWith('/v0/indices')) return json(200, { indices: [] });
      json(404, { error: { code: 'not_found', message: 'no such route' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
