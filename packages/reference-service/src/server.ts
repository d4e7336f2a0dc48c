/** Listening server with graceful shutdown. */
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
  let closing: Promise<void> | undefined;
  return {
    app,
    url: address.replace('[::1]', '127.0.0.1'),
    // Connections end as their last answer does (http/quiet-close.ts, installed by buildApp).
    close: () => (closing ??= app.close()),
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
