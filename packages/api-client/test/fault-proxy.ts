/**
 * A fault-injecting HTTP proxy on 127.0.0.1 in front of the real service. Each incoming request
 * takes the next planned fault (then `pass` once the plan is used up):
 *
 * - `pass`: forward and relay the response.
 * - `reset`: destroy the connection before forwarding (the service never sees the request).
 * - `status`: answer with a status/headers/body without forwarding (503 bursts, 429s).
 * - `delay`: wait, then forward; if the client gives up first, never forward.
 * - `hang`: never answer; the connection stays open until the client goes away.
 * - `truncate`: forward, then send the headers and half the body and cut the connection
 *   (a body cut off mid-JSON; the service has already done its work).
 * - `lose`: forward, then cut the connection without any response (response lost after the
 *   service committed).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { readonly type: 'pass' }
  | { readonly type: 'reset' }
  | {
      readonly type: 'status';
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: string;
    }
  | { readonly type: 'delay'; readonly ms: number }
  | { readonly type: 'hang' }
  | { readonly type: 'truncate' }
  | { readonly type: 'lose' };

export interface FaultProxy {
  readonly url: string;
  /** Every request the proxy received, with the fault it got. */
  readonly seen: Array<{ method: string; url: string; fault: Fault['type'] }>;
  /** Requests that reached the service. */
  readonly forwarded: () => number;
  plan(...faults: Fault[]): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const queue: Fault[] = [];
  const seen: FaultProxy['seen'] = [];
  const sockets = new Set<Socket>();
  let forwarded = 0;

  /** Forwards one buffered request; resolves with the whole upstream response. */
  function forward(
    req: http.IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    forwarded++;
    return new Promise((resolve, reject) => {
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host, 'content-length': String(body.length) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });
  }

  function relayHeaders(
    headers: http.IncomingHttpHeaders,
    length: number,
  ): http.OutgoingHttpHeaders {
    const out: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(headers))
      if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
    out['content-length'] = String(length);
    return out;
  }

  const server = http.createServer((req, res) => {
    const fault = queue.shift() ?? { type: 'pass' };
    seen.push({ method: req.method ?? '', url: req.url ?? '', fault: fault.type });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fail = (err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${String(err)}`);
      };
      switch (fault.type) {
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          return;
        case 'status':
          res.writeHead(fault.status, fault.headers ?? {});
          res.end(fault.body ?? '');
          return;
        case 'delay': {
          const timer = setTimeout(() => {
            forward(req, body).then((r) => {
              res.writeHead(r.status, relayHeaders(r.headers, r.body.length));
              res.end(r.body);
            }, fail);
          }, fault.ms);
          res.on('close', () => clearTimeout(timer));
          return;
        }
        case 'truncate':
          forward(req, body).then((r) => {
            res.writeHead(r.status, relayHeaders(r.headers, r.body.length));
            res.write(r.body.subarray(0, Math.floor(r.body.length / 2)), () => {
              req.socket.destroy();
            });
          }, fail);
          return;
        case 'lose':
          forward(req, body).then(() => req.socket.destroy(), fail);
          return;
        case 'pass':
          forward(req, body).then((r) => {
            res.writeHead(r.status, relayHeaders(r.headers, r.body.length));
            res.end(r.body);
          }, fail);
          return;
      }
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
    seen,
    forwarded: () => forwarded,
    plan: (...faults) => {
      queue.length = 0;
      queue.push(...faults);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
