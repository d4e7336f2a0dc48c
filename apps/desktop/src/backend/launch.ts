/**
 * Start-up shared by browser mode and Electron's backend process: if no service is configured,
 * start the embedded reference service (demo data, demo key stored as the secret); then the
 * backend over the data dir.
 */
import { createBackend, type Backend, type BackendOptions } from './backend';
import { startEmbeddedService, type EmbeddedService } from './embedded-service';
import { EMBEDDED_BINDING } from './key-binding';
import { openDesktopStore } from './local-store';
import type { Secrets } from './secrets';

export interface Launched {
  readonly backend: Backend;
  readonly embedded: EmbeddedService | null;
  close(): Promise<void>;
}

export async function launchBackend(
  options: Omit<BackendOptions, 'embeddedServiceUrl'> & {
    readonly secrets: Secrets;
    /** Start the embedded service when no service URL is set (default true). */
    readonly embedded?: boolean;
    readonly embeddedScenes?: number;
    readonly log?: (line: string) => void;
  },
): Promise<Launched> {
  const store = openDesktopStore(options.dataDir);
  const configured = store.settings().serviceUrl;
  let embedded: EmbeddedService | null = null;
  try {
    if (configured === null && options.embedded !== false) {
      options.log?.(
        'No service configured: starting the embedded reference service with demo data.',
      );
      embedded = await startEmbeddedService({
        dataDir: options.dataDir,
        secrets: options.secrets,
        ...(options.embeddedScenes !== undefined ? { scenes: options.embeddedScenes } : {}),
      });
      // It left a key of its own in the secrets: bound to it (its port changes every launch).
      store.saveKeyBinding(EMBEDDED_BINDING);
      options.log?.(`Embedded reference service: ${embedded.url}`);
    }
  } finally {
    store.close();
  }
  const backend = createBackend({ ...options, embeddedServiceUrl: embedded?.url ?? null });
  return {
    backend,
    embedded,
    async close() {
      await backend.close();
      await embedded?.close();
    },
  };
}
