/**
 * Outbox flush benchmark: N queued orders flushed to the reference service (each: committed
 * `sending`, POST with its Idempotency-Key, committed `sent` with the response; SQLite WAL,
 * synchronous=FULL) against the same client POSTing N orders directly, in the same run.
 * Prints orders/s for both and the ratio (outbox / direct).
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/flush.ts [--smoke]
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEoClient } from '@eo/api-client';
import { openLocalDatabase } from '../src/db/open';
import { createOutbox, type OutboxInput } from '../src/outbox/index';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 100 : 1_000;
const here = path.dirname(fileURLToPath(import.meta.url));

function order(name: string): OutboxInput<'order'> {
  const [w, s, e, n] = [11.3, 44.45, 11.425, 44.55];
  const ring: Array<[number, number]> = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
  return {
    order_items: [
      {
        project_id: 'prj-demo-crops',
        name,
        geometry: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] } }],
        },
        start_date: '2030-06-01T00:00:00Z',
        end_date: '2030-06-30T00:00:00Z',
      },
    ],
  };
}

const child = fork(path.join(here, 'reference-service.ts'), [], {
  execArgv: process.execArgv,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
  child.once('message', (m) => resolve(m as { url: string; key: string }));
  child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
});
const client = createEoClient({ baseUrl: url, apiKey: key });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-'));

try {
  // Warm-up: connections, JIT, the service's statement caches.
  for (let i = 0; i < 20; i++)
    await client.createOrder(order(`warm ${i}`), { idempotencyKey: randomUUID() });

  let t = performance.now();
  for (let i = 0; i < N; i++) {
    await client.createOrder(order(`direct ${i}`), { idempotencyKey: randomUUID() });
  }
  const directS = (performance.now() - t) / 1000;

  const local = openLocalDatabase(path.join(dir, 'local.sqlite'));
  const outbox = createOutbox({ db: local.sqlite, client });
  // The same warm-up for the outbox's own paths (statements, validation, JIT).
  for (let i = 0; i < 20; i++) outbox.enqueue('order', order(`warm outbox ${i}`));
  await outbox.flush();
  t = performance.now();
  for (let i = 0; i < N; i++) outbox.enqueue('order', order(`outbox ${i}`));
  const enqueueS = (performance.now() - t) / 1000;
  t = performance.now();
  const result = await outbox.flush();
  const flushS = (performance.now() - t) / 1000;
  local.close();
  if (result.sent !== N || result.remaining !== 0) {
    throw new Error(`flush did not send everything: ${JSON.stringify(result)}`);
  }

  const direct = N / directS;
  const flushed = N / flushS;
  console.log(`orders: ${N}${smoke ? ' (smoke)' : ''}`);
  console.log(`direct POSTs:  ${direct.toFixed(0)} orders/s`);
  console.log(`outbox flush:  ${flushed.toFixed(0)} orders/s`);
  console.log(`outbox enqueue: ${(N / enqueueS).toFixed(0)} orders/s`);
  console.log(`ratio flush/direct: ${(flushed / direct).toFixed(2)}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  child.kill();
}
