/**
 * A loopback proxy in front of the reference service that can hold requests at a gate: a
 * journey that must see a state in the middle of a sync (a partial count on the progress bar)
 * holds the rest of the pull there instead of hoping to catch it in time. Everything else is
 * forwarded as is; when the service is down the client's connection is cut (as a network
 * failure looks to the app), so the connectivity indicator behaves as without the proxy.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface GateProxy {
  readonly url: string;
  /** Requests waiting at the gate now. */
  readonly held: number;
  /** Opens the gate: held requests go on, and later ones are not held. */
  release(): void;
  close(): Promise<void>;
}

/** A request as the gate sees it (the body as text, '' for GETs). */
export interface GateRequest {
  readonly method: string;
  readonly url: string;
  readonly body: string;
}

/** `hold` is asked per request while the gate is shut. */
export async function startGateProxy(
  target: string,
  hold: (req: GateRequest) => boolean,
): Promise<GateProxy> {
  const upstream = new URL(target);
  let open = false;
  let opened!: () => void;
  const gate = new Promise<void>((resolve) => (opened = resolve));
  let held = 0;
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = () => {
        const out = http.request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: upstream.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', () => req.socket.destroy());
        out.end(body);
      };
      if (
        open ||
        !hold({ method: req.method ?? 'GET', url: req.url ?? '/', body: body.toString() })
      ) {
        forward();
        return;
      }
      held++;
      void gate.then(() => {
        held--;
        forward();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get held() {
      return held;
    },
    release() {
      open = true;
      opened();
    },
    close() {
      open = true;
      opened();
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
