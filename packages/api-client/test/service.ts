/** The real reference service on 127.0.0.1, on a fresh SQLite file, seeded with the demo org. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO } from '@eo/fixtures';
import { createApiKey, seedDemo, startServer, type RunningServer } from '@eo/reference-service';

export interface TestService {
  readonly url: string;
  /** Demo organisation key (usr-demo-analyst). */
  readonly key: string;
  /** A second key of the same organisation (usr-demo-field), for rotation tests. */
  readonly secondKey: string;
  readonly server: RunningServer;
  close(): Promise<void>;
}

export async function startService(): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-api-client-'));
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  const sqlite = server.app.ctx.sqlite;
  const now = Date.now();
  const key = seedDemo(sqlite, { nowMs: now }).demoKey!;
  const secondKey = createApiKey(sqlite, { orgId: DEMO.orgId, userId: DEMO.users[1].id }, now);
  return {
    url: server.url,
    key,
    secondKey,
    server,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A valid create-index body; `name` makes it unique. */
export function indexBody(name: string) {
  return {
    name,
    description: 'NDVI with the red-edge band',
    rescale: [-1, 1],
    expression: '(B08 - B05) / (B08 + B05)',
    colormap: 'RdYlGn',
    satellite_id: 'sat-aurora-1',
    expression_type: 'index' as const,
    type: 'custom' as const,
  };
}
