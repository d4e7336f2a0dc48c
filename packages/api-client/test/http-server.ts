/**
 * A tiny recording HTTP server on 127.0.0.1 (real sockets, no mocks): every request is recorded
 * (method, path, query, headers, body) and answered by a handler the test sets.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  readonly method: string;
  /** Raw request target, e.g. `/v0/aois/a%2Fb/assets?limit=5`. */
  readonly url: string;
  /** Raw path without the query. */
  readonly path: string;
  /** Raw query string without `?` ('' when none). */
  readonly search: string;
  readonly query: Record<string, string>;
  readonly headers: http.IncomingHttpHeaders;
  readonly bodyText: string;
  /** Parsed JSON body, or undefined when the body is empty. */
  readonly body: unknown;
}

export interface Reply {
  readonly status?: number;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as is (wins over json). */
  readonly text?: string;
  readonly headers?: Record<string, string>;
}

export type Handler = (req: Recorded) => Reply | Promise<Reply>;

export interface TestHttpServer {
  readonly url: string;
  readonly requests: Recorded[];
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

export async function startHttpServer(
  handler: Handler = () => ({ json: {} }),
): Promise<TestHttpServer> {
  let current = handler;
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bodyText = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const search = q >= 0 ? url.slice(q + 1) : '';
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        url,
        path: q >= 0 ? url.slice(0, q) : url,
        search,
        query: Object.fromEntries(new URLSearchParams(search)),
        headers: req.headers,
        bodyText,
        body: bodyText ? (JSON.parse(bodyText) as unknown) : undefined,
      };
      requests.push(recorded);
      Promise.resolve(current(recorded)).then(
        (reply) => {
          const payload =
            reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
          res.writeHead(reply.status ?? 200, {
            ...(reply.text === undefined && reply.json !== undefined
              ? { 'content-type': 'application/json' }
              : {}),
            ...reply.headers,
          });
          res.end(payload);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(h) {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
