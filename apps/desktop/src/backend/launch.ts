/**
 * Start-up shared by browser mode and Electron's backend process: the backend over the data dir,
 * and, if no service is configured, the embedded reference service (demo data, demo key stored
 * as the secret).
 *
 * Cold start: what would take a core while the renderer draws its first screen waits for it
 * (`first-screen.ts`: the renderer says so, or `waitForFirstScreenMs` after launch if none
 * does): the first connectivity check, and the embedded service. Once that service has given us
 * a key (every launch after the first), the backend starts without it, on a port held for it
 * (`held-port.ts`), and the service (its code imported only then) starts after the first
 * screen; a check meanwhile waits on the held port, so it finds the service, never a closed
 * port. The first run has no key to connect with, so it starts the service first.
 */
import { createBackend, type Backend, type BackendOptions } from './backend';
import type { EmbeddedService } from './embedded-service';
import { FIRST_SCREEN_WAIT_MS } from './first-screen';
import { holdPort } from './held-port';
import { EMBEDDED_BINDING } from './key-binding';
import { keySlot, openKeyring } from './keyring';
import { openDesktopStore } from './local-store';
import type { Secrets } from './secrets';

export interface Launched {
  readonly backend: Backend;
  /** The embedded service's address (known at once), and when it answers. */
  readonly embedded: { readonly url: string; readonly started: Promise<void> } | null;
  close(): Promise<void>;
}

export type LaunchOptions = Omit<BackendOptions, 'embeddedServiceUrl'> & {
  readonly secrets: Secrets;
  /** Start the embedded service when no service URL is set (default true). */
  readonly embedded?: boolean;
  readonly embeddedScenes?: number;
  readonly log?: (line: string) => void;
};

/**
 * The first screen draws every footprint: they are read from the mirror now, while the page
 * loads; the mirror keeps that answer (paging and sort aside), so the page's first
 * `catalog.footprints` gets it without reading again, and once the first screen is up it is kept
 * for the next launch (`catalog-view.ts`).
 */
function warmFootprints(backend: Backend): Backend {
  setImmediate(() => void backend.dispatch('catalog.footprints', {}));
  return backend;
}

/** Closing twice closes once (shutdown paths may overlap). */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

async function startEmbedded(options: LaunchOptions, key: Secrets): Promise<EmbeddedService> {
  options.log?.('No service configured: starting the embedded reference service with demo data.');
  // Imported here, not at the top: the server's code is not needed for the first screen.
  const { startEmbeddedService } = await import('./embedded-service');
  return startEmbeddedService({
    dataDir: options.dataDir,
    secrets: key,
    ...(options.embeddedScenes !== undefined ? { scenes: options.embeddedScenes } : {}),
  });
}

export async function launchBackend(given: LaunchOptions): Promise<Launched> {
  const options = {
    ...given,
    waitForFirstScreenMs: given.waitForFirstScreenMs ?? FIRST_SCREEN_WAIT_MS,
  };
  const store = openDesktopStore(options.dataDir);
  let wanted: boolean;
  let deferred: boolean;
  let embeddedKey: Secrets;
  try {
    wanted = store.settings().serviceUrl === null && options.embedded !== false;
    // Its key is kept under `embedded` (its port changes every launch).
    const ring = openKeyring(options.secrets, store, wanted ? EMBEDDED_BINDING : null);
    embeddedKey = keySlot(ring, EMBEDDED_BINDING, options.secrets);
    deferred = wanted && embeddedKey.get() !== null;
    if (wanted && !deferred) {
      const service = await startEmbedded(options, embeddedKey);
      options.log?.(`Embedded reference service: ${service.url}`);
      // The first run: nothing mirrored to draw, so nothing waits (its first sync comes as
      // soon as the service answers).
      const backend = warmFootprints(createBackend({ ...given, embeddedServiceUrl: service.url }));
      return {
        backend,
        embedded: { url: service.url, started: Promise.resolve() },
        close: once(async () => {
          await backend.close();
          await service.close();
        }),
      };
    }
  } finally {
    store.close();
  }
  if (!deferred) {
    const backend = warmFootprints(createBackend({ ...options, embeddedServiceUrl: null }));
    return { backend, embedded: null, close: once(() => backend.close()) };
  }

  const held = await holdPort();
  const backend = warmFootprints(createBackend({ ...options, embeddedServiceUrl: held.url }));
  let service: EmbeddedService | null = null;
  let begin!: () => void;
  const go = new Promise<void>((resolve) => (begin = resolve));
  // The first paint is done (its answer sent first): the service's start no longer takes its cores.
  void backend.firstScreenShown.then(() => setImmediate(begin));
  let closing = false;
  const started = go.then(async () => {
    if (closing) return;
    service = await startEmbedded(options, embeddedKey);
    held.handTo(service.server.app.server);
    options.log?.(`Embedded reference service: ${held.url}`);
  });
  started.catch((e: unknown) =>
    options.log?.(
      `The embedded reference service did not start: ${e instanceof Error ? e.message : e}`,
    ),
  );
  return {
    backend,
    embedded: { url: held.url, started },
    close: once(async () => {
      closing = true;
      begin();
      await started.catch(() => undefined);
      await backend.close();
      await (service as EmbeddedService | null)?.close();
      await held.close();
    }),
  };
}
