/**
 * The reference service's data for the first-sync benchmark: the demo org with `records` bulk
 * catalog records (the server's seed generator) and `orders` orders created through the API,
 * built once into the bench cache. `serviceCopy` hands each run its own copy of it, so a run
 * never changes the cached data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { DEMO } from '@eo/fixtures';
import { cached, log, tempDir } from './common';
import { orderInput } from './orders';

/** The API key of the cached service (a throwaway local key; never printed). */
const KEY_FILE = 'bench-key';

export async function serviceData(records: number, orders: number): Promise<string> {
  return cached(`service-r${records}-o${orders}`, async (dir) => {
    log(`building the service data (${records} catalog records, ${orders} orders) in ${dir} ...`);
    const t0 = performance.now();
    // Loaded only to build (a cached run never starts the server in this process).
    const { insertCatalogRecords, seedDemo, startServer } = await import('@eo/reference-service');
    const server = await startServer({
      dataDir: dir,
      logLevel: false,
      stepDelayMs: 0,
      workerTickMs: 0,
    });
    try {
      const nowMs = Date.now();
      // Few scenes: one demo catalog record; the bulk records make the volume.
      const key = seedDemo(server.app.ctx.sqlite, { nowMs, scenes: 10 }).demoKey!;
      fs.writeFileSync(path.join(dir, KEY_FILE), key, { mode: 0o600 });
      insertCatalogRecords(server.app.ctx.sqlite, records, {
        orgId: DEMO.orgId,
        userId: DEMO.users[0].id,
        nowUs: nowMs * 1000,
        onProgress: (n) => log(`  ${n} catalog records`),
      });
      // Orders through the API (quotes, items, tasks as the service makes them), 4 at a time.
      const client = createEoClient({ baseUrl: server.url, apiKey: key });
      let next = 0;
      const lane = async () => {
        while (next < orders) {
          const k = next++;
          await client.createOrder(orderInput(`bench ${k}`, k));
          if ((k + 1) % 2000 === 0) log(`  ${k + 1} orders`);
        }
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
    } finally {
      await server.close();
    }
    log(`  built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });
}

/** A private copy of the cached data dir (removed by `dispose`) and the key to use on it. */
export function serviceCopy(source: string): { dir: string; key: string; dispose(): void } {
  const dir = tempDir('service');
  for (const f of fs.readdirSync(source)) {
    if (f.startsWith('eo.sqlite') || f === KEY_FILE)
      fs.copyFileSync(path.join(source, f), path.join(dir, f));
  }
  return {
    dir,
    key: fs.readFileSync(path.join(dir, KEY_FILE), 'utf8'),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
