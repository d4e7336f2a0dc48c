/**
 * Outbox flush benchmark: N queued orders flushed to the reference service (each: committed
 * `sending`, POST with its Idempotency-Key, committed `sent` with the response; SQLite WAL,
 * synchronous=FULL) against the same client POSTing N orders directly, in the same run.
 * Prints orders/s for both and the ratio (outbox / direct).
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/flush.ts [--smoke]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { openMirrorDatabase } from '../src/db/open';
import { createOutbox } from '../src/outbox/index';
import { reportVerdict } from '@eo/bench-kit';
import { fmt, smoke, tempDir } from './common';
import { orderInput as order } from './orders';
import { forkService } from './reference-service';

const N = smoke ? 50 : 1_000;
const WARM = smoke ? 5 : 20;

const service = await forkService();
const { url, key } = service;
const client = createEoClient({ baseUrl: url, apiKey: key });
const dir = tempDir('flush');

try {
  // Warm-up: connections, JIT, the service's statement caches.
  for (let i = 0; i < WARM; i++)
    await client.createOrder(order(`warm ${i}`), { idempotencyKey: randomUUID() });

  let t = performance.now();
  for (let i = 0; i < N; i++) {
    await client.createOrder(order(`direct ${i}`), { idempotencyKey: randomUUID() });
  }
  const directS = (performance.now() - t) / 1000;

  const local = openMirrorDatabase(path.join(dir, 'local.sqlite'));
  const outbox = createOutbox({ db: local.sqlite, client });
  // The same warm-up for the outbox's own paths (statements, validation, JIT).
  for (let i = 0; i < WARM; i++) outbox.enqueue('order', order(`warm outbox ${i}`));
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
  console.log(`flush: ${N} queued orders${smoke ? ' (smoke sizes, not a figure)' : ''}`);
  console.log(`  direct POSTs (baseline): ${fmt(direct)} orders/s`);
  console.log(`  outbox flush:            ${fmt(flushed)} orders/s`);
  console.log(`  outbox enqueue:          ${fmt(N / enqueueS)} orders/s`);
  // A figure, not a gate: the outbox's price for durability (two commits per order).
  reportVerdict('flush', [
    { what: 'outbox flush / direct POSTs orders/s', value: flushed / direct },
  ]);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  await service.stop();
}
