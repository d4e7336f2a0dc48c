import { DEMO } from '@eo/fixtures';
import { openMirrorDatabase } from '../src/db/open';
import { makeMirrorWriters } from '../src/mirror/writers';
const N = Number(process.argv[2] ?? 100000);
const file = process.argv[3] ?? '/tmp/floors/m.db';
const { generateCatalogRecords } = await import('@eo/server');
const local = openMirrorDatabase(file);
local.sqlite.pragma('synchronous = OFF');
local.sqlite.pragma('cache_size = -500000');
const writer = makeMirrorWriters(local.sqlite).catalogs;
const write = local.sqlite.transaction((batch: unknown[]) => writer.write(batch, '6f1c0b1e-6b8e-4f53-9a43-2c1f3f5d8e11'));
let batch: unknown[] = [];
const t0 = performance.now();
for (const r of generateCatalogRecords(N, { orgId: DEMO.orgId, userId: DEMO.users[0].id, nowUs: Date.UTC(2026, 0, 1) * 1000 })) {
  batch.push(r);
  if (batch.length === 20000) { write(batch); batch = []; }
}
write(batch);
local.sqlite.pragma('wal_checkpoint(TRUNCATE)');
console.log('built', ((performance.now()-t0)/1000).toFixed(1), 's');
const rows = local.sqlite.prepare(`SELECT name, sum(pgsize) AS bytes, sum(payload) payload, sum(unused) unused FROM dbstat GROUP BY name ORDER BY bytes DESC`).all() as any[];
for (const r of rows.slice(0, 20)) console.log(r.name.padEnd(40), (r.bytes / N).toFixed(1), (r.payload/N).toFixed(1), (r.unused/N).toFixed(1));
local.close();
