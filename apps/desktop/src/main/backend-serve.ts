/**
 * The backend side of the utilityProcess channel: starts the backend on `init` (with the key
 * main decrypted), answers `call`s through the backend's validating dispatch, forwards events,
 * and reports key changes to main, which stores them with safeStorage.
 */
import { MirrorInUseError, type MirrorLock } from '@eo/sync';
import { holdDataFolder } from '../backend/data-lock';
import { launchBackend, type Launched } from '../backend/launch';
import type { Secrets } from '../backend/secrets';
import type { FromBackend, PortLike, ToBackend } from './backend-protocol';

export function serveBackend(
  port: PortLike<ToBackend, FromBackend>,
  launch: typeof launchBackend = launchBackend,
): void {
  let launched: Promise<Launched | null> = Promise.resolve(null);
  let lock: MirrorLock | null = null;
  port.onMessage((msg) => {
    void handle(msg).catch((e: unknown) => {
      port.postMessage({
        type: 'fatal',
        message: e instanceof Error ? e.message : String(e),
        ...(e instanceof MirrorInUseError ? { inUse: true } : {}),
      });
    });
  });

  async function handle(msg: ToBackend): Promise<void> {
    switch (msg.type) {
      case 'init': {
        let key = msg.apiKey;
        const secrets: Secrets = {
          get: () => key,
          set: (k) => {
            key = k;
            port.postMessage({ type: 'secret.set', key: k });
          },
          storage: () => msg.keyStorage,
        };
        // Before anything opens a file of the folder: browser mode or `eo outbox flush` may
        // hold it (MirrorInUseError, shown by main as such).
        lock ??= holdDataFolder(msg.dataDir, 'electron');
        launched = launch({
          dataDir: msg.dataDir,
          secrets,
          mode: 'electron',
          version: msg.version,
          log: (line) => console.error(line),
        });
        const l = await launched.catch((e: unknown) => {
          lock?.release();
          lock = null;
          throw e;
        });
        if (!l) return;
        l.backend.events.onAny((event, payload) =>
          port.postMessage({ type: 'event', event, payload }),
        );
        port.postMessage({ type: 'ready', embeddedServiceUrl: l.embedded?.url ?? null });
        return;
      }
      case 'call': {
        const l = await launched;
        const result = l
          ? await l.backend.dispatch(msg.method, msg.input)
          : ({
              ok: false,
              error: { code: 'internal', message: 'the backend is not started' },
            } as const);
        port.postMessage({ type: 'result', id: msg.id, result });
        return;
      }
      case 'quicklook': {
        const l = await launched;
        port.postMessage({
          type: 'quicklook',
          id: msg.id,
          answer: l ? l.backend.quicklook(msg.request) : { status: 404 },
        });
        return;
      }
      case 'raster': {
        const l = await launched;
        port.postMessage({
          type: 'raster',
          id: msg.id,
          answer: l ? await l.backend.rasterBytes(msg.request) : { status: 404 },
        });
        return;
      }
      case 'rasterExport': {
        const l = await launched;
        port.postMessage({
          type: 'rasterExport',
          id: msg.id,
          file: l ? l.backend.rasterExportFile(msg.exportId) : null,
        });
        return;
      }
      case 'shutdown': {
        const l = await launched.catch(() => null);
        await l?.close();
        lock?.release();
        lock = null;
        port.postMessage({ type: 'closed' });
        return;
      }
    }
  }
}
