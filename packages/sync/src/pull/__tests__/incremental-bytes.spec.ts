/**
 * What a daily re-sync moves (README "Incremental sync"): 10,000 catalog records on the real
 * service, 1% of them changed after a full pass; response bytes counted as they arrive. Prints
 * the figures; asserts only what must hold whatever the machine (no timing).
 */
import path from 'node:path';
import { readInstant } from '@eo/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { createSyncEngine } from '../engine';
import { changeCatalogRecords, meteredClient, serviceCatalog } from './incremental-service';
import { addCatalogCopies, startService, type TestService } from './service';

const RECORDS = 10_000;
let service: TestService;
const tmp = tempDir('incremental-bytes');
beforeAll(async () => {
  service = await startService();
  addCatalogCopies(service, RECORDS - serviceCatalog(service).length);
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

it('a re-sync after 1% of 10,000 catalog records changed moves about 1% of the bytes', async () => {
  const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
  const { client, transfer, reset } = meteredClient(service);
  const engine = createSyncEngine({ db, client });
  try {
    await engine.sync({ resources: ['catalogs'] });
    const full = { ...transfer };
    const records = serviceCatalog(service);
    expect(records).toHaveLength(RECORDS);
    const watermark = Math.max(
      ...records.map((r) => readInstant(r.details.properties['updated']) ?? 0),
    );
    // Spread the 1% over the catalog, stamped after the pass as a service would.
    const changed = records.filter((_, i) => i % 100 === 7);
    changeCatalogRecords(service, changed, new Date(watermark / 1000 + 60_000).toISOString());

    reset();
    await engine.sync({ resources: ['catalogs'] });
    const incremental = { ...transfer };
    reset();
    await engine.sync({ resources: ['catalogs'], full: true });
    const again = { ...transfer };

    const line = (name: string, t: typeof full) =>
      `${name}: ${t.records['catalogs'] ?? 0} records, ${t.requests} requests, ${t.bytes} bytes (${Math.round(t.bytes / Math.max(1, t.records['catalogs'] ?? 0))} B/record)`;
    console.log(
      [
        `catalog re-sync, ${RECORDS} records, ${changed.length} changed:`,
        line('  first full pass', full),
        line('  incremental re-sync', incremental),
        line('  full re-sync', again),
        `  incremental / full bytes: ${(incremental.bytes / again.bytes).toFixed(4)}`,
      ].join('\n'),
    );
    expect(incremental.records['catalogs']).toBeGreaterThanOrEqual(changed.length);
    expect(incremental.bytes).toBeLessThan(again.bytes * 0.05);
  } finally {
    db.close();
  }
  // Three passes over 10,000 records: ~15 s on a quiet machine, past 60 s at load 12.
}, 240_000);
