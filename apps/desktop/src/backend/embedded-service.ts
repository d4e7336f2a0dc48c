/**
 * With no service configured, the app starts the reference service itself (packages/reference-service) on
 * 127.0.0.1, with its data under the app's data dir, seeded with the demo organisation on the
 * first start (with field sites seen on several dates, and orders and AOIs under way), and
 * stores a demo API key as the app's secret: a newcomer sees the catalog on a
 * map without setting anything up.
 */
import { createEoClient } from '@eo/api-client';
import { DEMO } from '@eo/fixtures';
import {
  createApiKey,
  seedDemo,
  seedDemoWork,
  startServer,
  type RunningServer,
} from '@eo/reference-service';
import { checkConnectivity, makePrivateDir, preparePrivateDatabase } from '@eo/sync';
import path from 'node:path';
import type { Secrets } from './secrets';

/** The service's database file in its data dir (the service's default, `ServerConfig.dbFile`). */
const EMBEDDED_DATABASE_FILE = 'eo.sqlite';

export interface EmbeddedService {
  readonly url: string;
  readonly server: RunningServer;
  close(): Promise<void>;
}

export async function startEmbeddedService(options: {
  readonly dataDir: string;
  readonly secrets: Secrets;
  /** Archive scenes on the first seed (default: the service's demo size). */
  readonly scenes?: number;
  readonly port?: number;
  /** Delay between fulfilment steps (ms): watchable in a demo. Default 2000. */
  readonly stepDelayMs?: number;
}): Promise<EmbeddedService> {
  // The user's alone, like the rest of the data dir: the folder 0700, its database 0600 (its
  // -wal and -shm take the database's mode), an older 0755 / 0644 tightened.
  const dataDir = path.join(options.dataDir, 'embedded-service');
  makePrivateDir(dataDir, { own: true });
  preparePrivateDatabase(path.join(dataDir, EMBEDDED_DATABASE_FILE));
  const server = await startServer(
    {
      dataDir,
      logLevel: false,
      stepDelayMs: options.stepDelayMs ?? 2000,
    },
    { host: '127.0.0.1', port: options.port ?? 0 },
  );
  try {
    const sqlite = server.app.ctx.sqlite;
    const seeded = seedDemo(sqlite, {
      nowMs: Date.now(),
      sites: true,
      ...(options.scenes !== undefined ? { scenes: options.scenes } : {}),
    });
    if (seeded.demoKey) {
      // A first start: the demo organisation's orders and AOIs, made through the service's API.
      await seedDemoWork(server.app, seeded.demoKey, Date.now());
      options.secrets.set(seeded.demoKey);
    } else if (!(await keyWorks(server.url, options.secrets.get()))) {
      // The stored key belongs elsewhere (or was forgotten): a fresh demo key for this service.
      const key = createApiKey(
        sqlite,
        { orgId: DEMO.orgId, userId: DEMO.users[0].id, label: 'desktop' },
        Date.now(),
      );
      options.secrets.set(key);
    }
  } catch (e) {
    await server.close();
    throw e;
  }
  return { url: server.url, server, close: () => server.close() };
}

async function keyWorks(url: string, key: string | null): Promise<boolean> {
  if (key === null) return false;
  const c = await checkConnectivity(createEoClient({ baseUrl: url, apiKey: key }));
  return c.status === 'online';
}
