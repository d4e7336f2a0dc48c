/**
 * A misbehaving service, for tests: an HTTP proxy on 127.0.0.1 in front of a real one (the
 * reference service), through which a test makes the service behave the way real ones do when
 * they move, repeat and misbehave. Each request goes to the first rule that matches it; a rule
 * forwards the request (or not), may wait for anything first (hold a request while the test
 * changes the service), and answers with what the service said, a changed copy of it, its own
 * answer, or nothing at all (the connection is cut). Requests no rule matches pass unchanged.
 *
 * What tests build with it (helpers below): records inserted or deleted between two pages, a
 * record listed on two pages and another on none, future timestamps, ids whose case or spacing
 * changes between pages, `409 still being processed` to a retried create while the first attempt
 * runs, a complete 200 whose body was cut short, nonsense totals.
 *
 * The service is asked for uncompressed bodies (`Accept-Encoding: identity`) so a rule can read
 * and rewrite them; the answers go out uncompressed with their own Content-Length.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the proxy received it. */
export interface ProxiedRequest {
  readonly method: string;
  /** Path and query, as sent (`/v0/orders?offset=100&limit=100`). */
  readonly url: string;
  /** The path alone. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Names lower-case. */
  readonly headers: http.IncomingHttpHeaders;
  /** The body as text ('' without one). */
  readonly body: string;
  /** The body as JSON (undefined when it is not JSON). */
  json(): unknown;
}

/** What the service answered (body decoded: the proxy asks for identity). */
export interface Upstream {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  text(): string;
  json(): unknown;
}

/** An answer a rule sends instead of (or made from) the service's. */
export interface Reply {
  readonly status: number;
  readonly headers?: Record<string, string> | undefined;
  readonly body?: string | Buffer | undefined;
}

export interface Exchange {
  readonly request: ProxiedRequest;
  /** Sends the request to the service (once; later calls return the same answer). */
  forward(): Promise<Upstream>;
  /**
   * Cuts the client's connection now, without an answer; the rule may go on (forward later: the
   * service does the work of a request whose client has given up on it). Then return 'drop'.
   */
  cut(): void;
}

/**
 * What a rule answers: `undefined` = what the service said, unchanged (forwarded if the rule did
 * not); a Reply or an Upstream = that; `'drop'` = the client's connection is cut without an
 * answer (after forwarding, if the rule did: the service did the work, the answer is lost).
 */
export type Outcome = Reply | Upstream | 'drop' | undefined;

export type Rule = (exchange: Exchange) => Outcome | Promise<Outcome>;

export interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  /** The rule that took it, by the name it was added with (`pass` for none). */
  readonly rule: string;
  /** Status sent to the client; undefined when the connection was cut. */
  status?: number | undefined;
}

export interface MisbehavingProxy {
  readonly url: string;
  /** Every request received, in order, with the rule that took it and the status sent. */
  readonly log: readonly LoggedRequest[];
  /**
   * Adds a rule for the requests `match` accepts (after the rules added before it). Returns a
   * function that removes it.
   */
  use(name: string, match: (req: ProxiedRequest) => boolean, rule: Rule): () => void;
  /** Removes every rule: requests pass unchanged. */
  clear(): void;
  close(): Promise<void>;
}

/** Headers never relayed as they came: the proxy frames and encodes bodies itself. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'host',
]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function upstreamOf(status: number, raw: http.IncomingHttpHeaders, body: Buffer): Upstream {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined || HOP_BY_HOP.has(k)) continue;
    headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return {
    status,
    headers,
    body,
    text: () => body.toString('utf8'),
    json: () => parseJson(body.toString('utf8')),
  };
}

export async function startMisbehavingProxy(target: string): Promise<MisbehavingProxy> {
  const upstream = new URL(target);
  const rules: Array<{ name: string; match: (r: ProxiedRequest) => boolean; rule: Rule }> = [];
  const log: LoggedRequest[] = [];
  const sockets = new Set<Socket>();

  function forward(req: http.IncomingMessage, body: Buffer): Promise<Upstream> {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers))
      if (!HOP_BY_HOP.has(k) && k !== 'accept-encoding') headers[k] = v;
    headers.host = upstream.host;
    headers['accept-encoding'] = 'identity';
    headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve(upstreamOf(res.statusCode ?? 502, res.headers, Buffer.concat(chunks))),
          );
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });
  }

  function send(res: http.ServerResponse, reply: Reply, entry: LoggedRequest): void {
    const body =
      reply.body === undefined
        ? Buffer.alloc(0)
        : Buffer.isBuffer(reply.body)
          ? reply.body
          : Buffer.from(reply.body, 'utf8');
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(reply.headers ?? {}))
      if (!HOP_BY_HOP.has(k.toLowerCase())) headers[k] = v;
    headers['content-length'] = String(body.length);
    entry.status = reply.status;
    res.writeHead(reply.status, headers);
    res.end(body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? '/';
      const parsed = new URL(url, 'http://proxy.invalid');
      const text = body.toString('utf8');
      const request: ProxiedRequest = {
        method: req.method ?? 'GET',
        url,
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: text,
        json: () => parseJson(text),
      };
      const taken = rules.find((r) => r.match(request));
      const entry: LoggedRequest = { method: request.method, url, rule: taken?.name ?? 'pass' };
      log.push(entry);
      let answer: Promise<Upstream> | undefined;
      const cut = () => req.socket.destroy();
      const exchange: Exchange = {
        request,
        forward: () => (answer ??= forward(req, body)),
        cut,
      };
      Promise.resolve(taken ? taken.rule(exchange) : undefined)
        .then(async (outcome) => {
          if (outcome === 'drop') return cut();
          send(res, outcome ?? (await exchange.forward()), entry);
        })
        .catch((e: unknown) => {
          if (res.headersSent) return cut();
          send(res, { status: 502, body: `misbehaving proxy: ${String(e)}` }, entry);
        });
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
    log,
    use(name, match, rule) {
      const r = { name, match, rule };
      rules.push(r);
      return () => {
        const at = rules.indexOf(r);
        if (at >= 0) rules.splice(at, 1);
      };
    },
    clear: () => {
      rules.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Building blocks for rules

/** The service's answer with another JSON body (same status and headers). */
export function withJson(upstream: Upstream, json: unknown): Reply {
  return {
    status: upstream.status,
    headers: { ...upstream.headers, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  };
}

/**
 * The service's answer, complete as an HTTP message (its Content-Length matches) but with only
 * the first `keep` of its body: what a gateway with a full buffer or a broken cache sends.
 */
export function truncated(upstream: Upstream, keep = 0.5): Reply {
  return {
    status: upstream.status,
    headers: upstream.headers,
    body: upstream.body.subarray(0, Math.floor(upstream.body.length * keep)),
  };
}

/** A JSON answer of the proxy's own. */
export function jsonAnswer(
  status: number,
  json: unknown,
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(json),
  };
}

/**
 * A rule that rewrites the JSON body of successful answers (`edit` gets the parsed body and
 * returns the new one; the request says which page it was). Other answers pass unchanged.
 */
export function rewriteJson(
  edit: (json: Record<string, unknown>, request: ProxiedRequest) => unknown,
): Rule {
  return async ({ request, forward }) => {
    const up = await forward();
    const json = up.json();
    if (up.status < 200 || up.status > 299 || typeof json !== 'object' || json === null) return up;
    return withJson(up, edit(json as Record<string, unknown>, request));
  };
}

/** The `offset` a list request asked for: its query, else its JSON body (searches), else 0. */
export function offsetOf(request: ProxiedRequest): number {
  const q = request.query.get('offset') ?? request.query.get('skip');
  if (q !== null) return Number(q);
  const body = request.json() as { offset?: unknown; skip?: unknown } | undefined;
  return Number(body?.offset ?? body?.skip ?? 0) || 0;
}
