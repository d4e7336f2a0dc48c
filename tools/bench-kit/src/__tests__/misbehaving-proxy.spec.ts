/**
 * The misbehaving proxy in front of a small JSON service: requests pass unchanged unless a rule
 * takes them; a rule rewrites bodies, cuts them short in a complete message, answers itself, cuts
 * the connection, or holds a request until the test lets it go.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  jsonAnswer,
  offsetOf,
  rewriteJson,
  startMisbehavingProxy,
  truncated,
  type MisbehavingProxy,
} from '../misbehaving-proxy';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/** A service listing `n` records by offset; counts the requests it served and what it was sent. */
async function listService(n: number) {
  const served: Array<{ url: string; encoding: string | undefined; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      served.push({
        url: req.url ?? '',
        encoding: req.headers['accept-encoding'],
        body: Buffer.concat(chunks).toString(),
      });
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const items = Array.from({ length: Math.max(0, Math.min(10, n - offset)) }, (_, i) => ({
        id: `r${offset + i}`,
      }));
      res.writeHead(200, { 'content-type': 'application/json', 'x-kept': 'yes' });
      res.end(JSON.stringify({ items, pagination: { offset, limit: 10, total: n } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, served };
}

async function proxyOf(target: string): Promise<MisbehavingProxy> {
  const p = await startMisbehavingProxy(target);
  closers.push(() => p.close());
  return p;
}

describe('misbehaving proxy', () => {
  it('passes requests unchanged, asking the service for identity bodies, and logs them', async () => {
    const svc = await listService(25);
    const proxy = await proxyOf(svc.url);
    const res = await fetch(`${proxy.url}/list?offset=10`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.headers.get('x-kept')).toBe('yes');
    const body = (await res.json()) as { items: Array<{ id: string }> };
    expect(body.items.map((i) => i.id)[0]).toBe('r10');
    expect(svc.served[0]).toMatchObject({ url: '/list?offset=10', encoding: 'identity' });
    expect(proxy.log).toEqual([
      { method: 'GET', url: '/list?offset=10', rule: 'pass', status: 200 },
    ]);
  });

  it('rewrites the JSON of matching requests; others pass; a removed rule stops', async () => {
    const svc = await listService(25);
    const proxy = await proxyOf(svc.url);
    const remove = proxy.use(
      'total',
      (r) => offsetOf(r) === 10,
      rewriteJson((json) => ({ ...json, pagination: { total: -1 } })),
    );
    const page = async (offset: number) =>
      (await (await fetch(`${proxy.url}/list?offset=${offset}`)).json()) as {
        pagination: { total: number };
      };
    expect((await page(0)).pagination.total).toBe(25);
    expect((await page(10)).pagination.total).toBe(-1);
    remove();
    expect((await page(10)).pagination.total).toBe(25);
    expect(proxy.log.map((l) => l.rule)).toEqual(['pass', 'total', 'pass']);
  });

  it('cuts a body short in a complete message (its Content-Length says the short length)', async () => {
    const svc = await listService(25);
    const proxy = await proxyOf(svc.url);
    proxy.use(
      'cut',
      () => true,
      async ({ forward }) => truncated(await forward(), 0.5),
    );
    const res = await fetch(`${proxy.url}/list`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(() => JSON.parse(text)).toThrow();
    expect(text.startsWith('{"items":[')).toBe(true);
  });

  it('answers on its own, cuts the connection, and holds a request until let go', async () => {
    const svc = await listService(5);
    const proxy = await proxyOf(svc.url);
    let letGo!: () => void;
    const held = new Promise<void>((r) => (letGo = r));
    proxy.use(
      'busy',
      (r) => r.method === 'POST',
      () => jsonAnswer(409, { error: { code: 'in_progress' } }, { 'retry-after': '2' }),
    );
    proxy.use(
      'lost',
      (r) => r.path === '/lost',
      async ({ forward }) => {
        await forward();
        return 'drop' as const;
      },
    );
    proxy.use(
      'held',
      (r) => r.path === '/held',
      async () => {
        await held;
        return undefined;
      },
    );
    const busy = await fetch(`${proxy.url}/create`, { method: 'POST', body: '{}' });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(svc.served).toHaveLength(0);

    await expect(fetch(`${proxy.url}/lost`)).rejects.toThrow();
    expect(svc.served.map((s) => s.url)).toEqual(['/lost']);

    const pending = fetch(`${proxy.url}/held`);
    // Nothing reaches the service while the rule holds the request.
    await fetch(`${proxy.url}/other`);
    expect(svc.served.map((s) => s.url)).toEqual(['/lost', '/other']);
    letGo();
    expect((await pending).status).toBe(200);
    expect(svc.served.map((s) => s.url)).toEqual(['/lost', '/other', '/held']);
  });
});
