/**
 * A transparent loopback relay in front of the reference service (every header both ways,
 * bodies streamed), recording each request's method, path and headers: where the API key went.
 * `ignoreKey` plays a service that ignores Idempotency-Key and never says it honours it (the
 * key is dropped on the way in, the service's statement on the way out); `lose` forwards a
 * request and cuts the connection instead of answering (the create happened, its answer lost);
 * `hold` forwards only the first bytes of an answer's body and then holds the connection open
 * without a byte more (a reader stopped mid-range, for as long as the test wants).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { IDEMPOTENCY_SUPPORT_HEADER } from '@eo/domain';

export interface Relayed {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  /** Body bytes of the answer sent on so far. */
  sent: number;
}

export interface Relay {
  readonly url: string;
  readonly requests: Relayed[];
  /** Where requests go (settable: a service may need the relay's URL before it starts). */
  target: string;
  ignoreKey: boolean;
  lose: ((r: Relayed) => boolean) | null;
  /** How many body bytes of the answer to send before holding; null: all of them. */
  hold: ((r: Relayed) => number | null) | null;
  close(): Promise<void>;
}

export async function startRelay(target = 'http://127.0.0.1:9'): Promise<Relay> {
  const sockets = new Set<Socket>();
  const relay: Relay = {
    url: '',
    requests: [],
    target,
    ignoreKey: false,
    lose: null,
    hold: null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const upstream = new URL(relay.target);
    const recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      sent: 0,
    };
    relay.requests.push(recorded);
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
    if (relay.ignoreKey) delete headers['idempotency-key'];
    const lose = relay.lose?.(recorded) ?? false;
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (upRes) => {
        if (lose) {
          upRes.resume();
          upRes.on('end', () => req.socket.destroy());
          return;
        }
        const out = { ...upRes.headers };
        if (relay.ignoreKey) delete out[IDEMPOTENCY_SUPPORT_HEADER.toLowerCase()];
        res.writeHead(upRes.statusCode ?? 502, out);
        const limit = relay.hold?.(recorded) ?? Infinity;
        let held = false;
        upRes.on('data', (chunk: Buffer) => {
          const part = chunk.subarray(0, Math.max(0, limit - recorded.sent));
          recorded.sent += part.length;
          if (part.length > 0 && !res.write(part)) {
            upRes.pause();
            res.once('drain', () => held || upRes.resume());
          }
          if (part.length < chunk.length) {
            // Held: no byte more, and the connection stays open until the reader goes.
            held = true;
            upRes.pause();
          }
        });
        upRes.on('end', () => {
          if (!held) res.end();
        });
      },
    );
    up.on('error', () => req.socket.destroy());
    req.pipe(up);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (relay as { url: string }).url = `http://127.0.0.1:${port}`;
  return relay;
}
