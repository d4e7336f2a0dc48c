/**
 * A loopback HTTP proxy in front of the reference service that injects faults per request
 * (shared by the outbox and pull fault tests):
 *
 * - `reset`: connection destroyed before forwarding (the service never sees the request).
 * - `status`: answered by the proxy (e.g. a 503 of a burst), never forwarded; with
 *   `afterForwarding`, forwarded first (the service commits) and then answered with the status
 *   (a gateway that gave up on a service that did the work).
 * - `lose`: forwarded, the service commits, then the connection is cut: the response is lost.
 * - `cut`: forwarded, then the headers and half the body are sent and the connection is reset
 *   (a page cut off mid-JSON).
 * - `hang`: never answered; the connection stays open until the client gives up (a timeout).
 *
 * `choose` decides per request (it sees the method, URL and body); `stripIdempotencyKey` plays
 * a service that ignores the key (and, like the provider's real service, never says it honours
 * it: the service's `Idempotency-Key-Support` header is relayed only without it).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { IDEMPOTENCY_SUPPORT_HEADER } from '@eo/domain';

const SUPPORT = IDEMPOTENCY_SUPPORT_HEADER.toLowerCase();

export type Fault =
  | 'pass'
  | 'reset'
  | 'lose'
  | 'cut'
  | 'hang'
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly afterForwarding?: boolean;
    };

export interface ProxyRequest {
  readonly method: string;
  readonly url: string;
  /** The request body as text ('' for GETs). */
  readonly body: string;
  /** The request's headers as received (names lower-case). */
  readonly headers: http.IncomingHttpHeaders;
}

export interface FaultProxy {
  readonly url: string;
  readonly counts: Record<'pass' | 'reset' | 'lose' | 'cut' | 'hang' | 'status', number>;
  close(): Promise<void>;
}

export async function startFaultProxy(
  target: string,
  choose: (req: ProxyRequest) => Fault,
  options: { stripIdempotencyKey?: boolean } = {},
): Promise<FaultProxy> {
  const upstream = new URL(target);
  const counts = { pass: 0, reset: 0, lose: 0, cut: 0, hang: 0, status: 0 };
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fault = choose({
        method: req.method ?? '',
        url: req.url ?? '',
        body: body.toString('utf8'),
        headers: req.headers,
      });
      if (fault === 'reset') {
        counts.reset++;
        req.socket.destroy();
        return;
      }
      if (fault === 'hang') {
        counts.hang++;
        return;
      }
      const answer = (status: number, headers?: Record<string, string>) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ error: { code: 'unavailable', message: 'injected' } }));
      };
      if (typeof fault === 'object') counts.status++;
      else counts[fault]++;
      if (typeof fault === 'object' && !fault.afterForwarding) {
        answer(fault.status, fault.headers);
        return;
      }
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
          const parts: Buffer[] = [];
          upRes.on('data', (c: Buffer) => parts.push(c));
          upRes.on('end', () => {
            if (typeof fault === 'object') {
              answer(fault.status, fault.headers);
              return;
            }
            if (fault === 'lose') {
              req.socket.destroy();
              return;
            }
            const out = Buffer.concat(parts);
            const support = upRes.headers[SUPPORT];
            const coding = upRes.headers['content-encoding'];
            res.writeHead(upRes.statusCode ?? 502, {
              'content-type': upRes.headers['content-type'] ?? 'application/json',
              // The service compresses what the client asked to be compressed: say so.
              ...(coding ? { 'content-encoding': coding } : {}),
              'content-length': String(out.length),
              ...(support && !options.stripIdempotencyKey ? { [SUPPORT]: support } : {}),
            });
            if (fault === 'cut') {
              res.write(out.subarray(0, Math.floor(out.length / 2)), () => req.socket.destroy());
              return;
            }
            res.end(out);
          });
        },
      );
      up.on('error', () => req.socket.destroy());
      up.end(body);
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
