/**
 * A loopback HTTP proxy in front of the reference service that injects faults per request:
 * `reset` (connection destroyed, the service never sees it), `status` (answered by the proxy,
 * e.g. 503), `lose` (forwarded, the service commits, then the connection is cut: the response is
 * lost). `choose` decides per request; `stripIdempotencyKey` plays a service that ignores the key.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | 'pass'
  | 'reset'
  | 'lose'
  | { readonly status: number; readonly headers?: Record<string, string> };

export interface ProxyRequest {
  readonly method: string;
  readonly url: string;
}

export interface FaultProxy {
  readonly url: string;
  readonly counts: Record<'pass' | 'reset' | 'lose' | 'status', number>;
  close(): Promise<void>;
}

export async function startFaultProxy(
  target: string,
  choose: (req: ProxyRequest) => Fault,
  options: { stripIdempotencyKey?: boolean } = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  const counts = { pass: 0, reset: 0, lose: 0, status: 0 };
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const fault = choose({ method: req.method ?? '', url: req.url ?? '' });
      if (fault === 'reset') {
        counts.reset++;
        req.socket.destroy();
        return;
      }
      if (typeof fault === 'object') {
        counts.status++;
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        res.end(JSON.stringify({ error: { code: 'unavailable', message: 'injected' } }));
        return;
      }
      counts[fault]++;
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
      if (options.stripIdempotencyKey) delete headers['idempotency-key'];
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (upRes) => {
          const body: Buffer[] = [];
          upRes.on('data', (c: Buffer) => body.push(c));
          upRes.on('end', () => {
            if (fault === 'lose') {
              req.socket.destroy();
              return;
            }
            const out = Buffer.concat(body);
            res.writeHead(upRes.statusCode ?? 502, {
              'content-type': upRes.headers['content-type'] ?? 'application/json',
              'content-length': String(out.length),
            });
            res.end(out);
          });
        },
      );
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
