/**
 * Browser mode launcher: `node out/main/browser-mode.cjs [--port N] [--data-dir DIR]
 * [--renderer-dir DIR] [--no-embedded]` (built by electron-vite; `tsx src/browser-mode/main.ts`
 * runs the sources, about a second slower to start). Starts the backend (and the embedded reference service
 * when no service is configured), serves the built renderer on 127.0.0.1 and prints the URL to
 * open, with the per-launch token in its fragment.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MirrorInUseError } from '@eo/sync/mirror-lock';
import { CODE_CACHE_DIR, enableCodeCache } from '../backend/code-cache';
import { holdDataFolder } from '../backend/data-lock';
import type { Launched } from '../backend/launch';
import { keepPort, readLastPort } from './last-port';
import { startBrowserMode } from './server';

export function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'eo-field-desk');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'renderer-dir': { type: 'string' },
      'no-embedded': { type: 'boolean' },
    },
  });
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dataDir = path.resolve(values['data-dir'] ?? process.env.EO_DATA_DIR ?? defaultDataDir());
  const rendererDir = path.resolve(
    values['renderer-dir'] ?? path.join(here, '..', '..', 'out', 'renderer'),
  );
  const askedPort = values.port ?? process.env.EO_PORT;
  const port = askedPort === undefined ? undefined : Number(askedPort);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`bad port: ${askedPort}`);
  const log = (line: string) => console.error(line);

  // One app at a time on a data folder (the Electron app, another browser mode, `eo outbox
  // flush`): refused before anything listens, naming the one that runs (with its address).
  const lock = holdDataFolder(dataDir, 'browser');
  log(`Data: ${dataDir} (the API key is kept in ${path.join(dataDir, 'api-key')}, mode 0600)`);
  // The bundle's chunks (not the sources under tsx) compile with V8's cache of the last launch;
  // this launch's is written as it ends, with every function that ran in it.
  if (fileURLToPath(import.meta.url).endsWith('.cjs')) {
    const codeCache = enableCodeCache({
      cacheDir: path.join(dataDir, CODE_CACHE_DIR),
      chunksDir: here,
    });
    process.on('exit', () => codeCache.save());
  }
  // Listening first, the backend's code imported and started once the page went out: the
  // browser runs its kept scripts while the backend starts (calls and events wait for it).
  let started!: (launched: Promise<Launched>) => void;
  const launching = new Promise<Launched>((resolve) => (started = resolve));
  let startBackend = () => {
    startBackend = () => undefined;
    clearTimeout(fallback);
    started(
      Promise.all([import('../backend/launch'), import('../backend/secrets')]).then(
        ([{ launchBackend }, { fileSecrets }]) =>
          launchBackend({
            dataDir,
            secrets: fileSecrets(dataDir),
            mode: 'browser',
            version: process.env.npm_package_version ?? '0.1.0',
            embedded: !values['no-embedded'],
            log,
          }),
      ),
    );
  };
  // Once the page went out (static-files.ts), or soon anyway when nobody opens the page yet.
  const fallback = setTimeout(() => startBackend(), 1_000);
  const server = await startBrowserMode({
    backend: launching.then((l) => l.backend),
    rendererDir,
    port,
    // The last launch's port when none is asked for: the page's origin stays (last-port.ts).
    preferredPort: readLastPort(dataDir) ?? undefined,
    onPageServed: () => startBackend(),
  });
  if (port === undefined) keepPort(dataDir, Number(new URL(server.url).port), log);
  lock.describe({ url: server.openUrl });
  console.log(`EO Field Desk (browser mode) is running. Open:\n\n  ${server.openUrl}\n`);
  const launched = await launching;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: shutting down`);
    void server
      .close()
      .then(() => launched.close())
      .then(() => lock.release())
      .then(
        () => process.exit(0),
        (e: unknown) => {
          log(`shutdown failed: ${String(e)}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Said once the signals are ours: whoever reads it and stops us at once gets a clean shutdown
  // (said before, a SIGTERM could land before the handler and end the process unclean).
  log('Stop with Ctrl+C.');
}

main().catch((e: unknown) => {
  if (e instanceof MirrorInUseError)
    console.error(`EO Field Desk is already running on this data folder.\n${e.message}`);
  else console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
