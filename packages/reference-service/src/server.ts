/** Listening server with graceful shutdown. */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { ServerConfig } from './config';

export interface RunningServer {
  readonly app: FastifyInstance;
  /** e.g. http://127.0.0.1:43123 */
  readonly url: string;
  close(): Promise<void>;
}

export async function startServer(
  config: Partial<ServerConfig> & { dataDir: string },
  listen: { host?: string; port?: number } = {},
): Promise<RunningServer> {
  const app = await buildApp(config);
  const address = await app.listen({ host: listen.host ?? '127.0.0.1', port: listen.port ?? 0 });
  const quiet = closeQuietConnections(app.server);
  let closing: Promise<void> | undefined;
  return {
    app,
    url: address.replace('[::1]', '127.0.0.1'),
    close: () => {
      if (closing) return closing;
      closing = app.close();
      quiet.closing();
      return closing;
    },
  };
}

/**
 * Node's `server.close()` (and Fastify's 'idle' connection closing) ends keep-alive connections
 * between requests, but waits for a connection that was opened and never sent a byte: Node
 * counts it neither idle nor busy, and only `headersTimeout` (60 s) ends it. HTTP clients open
 * such connections (a pool connecting ahead, a request aborted while its socket connected), so
 * one of them held every shutdown for a minute. This tracks the requests in flight per socket;
 * once closing starts, a socket with none is ended at once, and a busy one as soon as its
 * last response is done. An in-flight request still finishes (that is the graceful part).
 */
function closeQuietConnections(server: Server): { closing(): void } {
  const inFlight = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (closing && left === 0) socket.destroySoon();
    });
  });
  return {
    closing() {
      closing = true;
      for (const [socket, n] of inFlight) if (n === 0) socket.destroySoon();
    },
  };
}

/** Close on SIGINT/SIGTERM: stop accepting, finish in-flight requests, stop the worker, close SQLite. */
export function closeOnSignals(
  server: RunningServer,
  log: (msg: string) => void = console.error,
): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    signalled = true;
    log(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log(`shutdown failed: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
