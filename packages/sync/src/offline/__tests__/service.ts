/**
 * The reference service for the offline tests: its worker running (downloads finish on their
 * own), signed URLs on another origin (`assets`, a relay to the same service: where the key must
 * never go), and a relay in front of the API (`relay`) recording where every request went.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedDemo, startServer, type RunningServer } from '@eo/server';
import { startRelay, type Relay } from './relay';

export interface OfflineService {
  readonly server: RunningServer;
  readonly key: string;
  readonly relay: Relay;
  readonly assets: Relay;
  /** Catalog record ids of the demo organisation. */
  readonly catalogIds: readonly string[];
  /** Downloads the service holds. */
  downloads(): number;
  close(): Promise<void>;
}

export async function startOfflineService(scenes = 400): Promise<OfflineService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-offline-service-'));
  const assets = await startRelay();
  const server = await startServer({
    dataDir,
    logLevel: false,
    stepDelayMs: 0,
    workerTickMs: 5,
    assetOrigin: assets.url,
  });
  assets.target = server.url;
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes }).demoKey!;
  const relay = await startRelay(server.url);
  const { sqlite } = server.app.ctx;
  const catalogIds = sqlite
    .prepare("SELECT id FROM catalog_records WHERE org_id = 'org-demo' ORDER BY id LIMIT 20")
    .pluck()
    .all() as string[];
  return {
    server,
    key,
    relay,
    assets,
    catalogIds,
    downloads: () => sqlite.prepare('SELECT count(*) FROM downloads').pluck().get() as number,
    async close() {
      await relay.close();
      await assets.close();
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
