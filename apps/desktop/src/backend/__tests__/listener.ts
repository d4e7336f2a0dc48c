/**
 * A stand-in service on 127.0.0.1 that records every request (and its Authorization header)
 * and holds the answers until `release(status)`: a service that is slow to answer, or "another
 * origin" that must never see the key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
}

export interface Listener {
  readonly url: string;
  readonly requests: CapturedRequest[];
  /** Answers the held requests, and every later one at once, with `status`. */
  release(status: number): void;
  close(): Promise<void>;
}

export async function startListener(options: { hold?: boolean } = {}): Promise<Listener> {
  const requests: CapturedRequest[] = [];
  const held: http.ServerResponse[] = [];
  let answer: number | null = options.hold ? null : 401;
  const reply = (res: http.ServerResponse, status: number) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'captured' } }));
  };
  const server = http.createServer((req, res) => {
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
    });
    if (answer === null) held.push(res);
    else reply(res, answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    release(status) {
      answer = status;
      for (const res of held.splice(0)) reply(res, status);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A real service seen through a recorder on its own 127.0.0.1 port: every request is passed on
 * to `target` as it came (the answers too), and its Authorization header is recorded.
 */
export async function startRecordingProxy(target: string): Promise<Listener> {
  const requests: CapturedRequest[] = [];
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
    });
    const forward = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    release: () => undefined,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
