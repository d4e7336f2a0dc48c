/**
 * Paging benchmark: N catalog records (full STAC details, ~2.5 KB each) paged from a local HTTP
 * server, with the client (`client.pages.catalogs`: request validation, response validation with
 * drift detection, retries, concurrency slot, hooks) against a raw loop of fetch + JSON.parse
 * over the same pages, in the same run. Prints records/s and the ratio to raw (target >= 0.8)
 * for the client as shipped (sequential pages, like the raw loop) and with `prefetch: true`.
 *
 *   bash scripts/pnpm.sh --filter @eo/api-client exec tsx bench/paging.ts [--smoke]
 *
 * The server runs in a child process so its work does not share the client's event loop.
 */
import { fork } from 'node:child_process';
import { reportVerdict, type Check } from '@eo/bench-kit';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEoClient } from '../src/index';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 2_000 : 100_000;
const PAGE = smoke ? 200 : 1_000;
const ROUNDS = smoke ? 2 : 4;
const here = path.dirname(fileURLToPath(import.meta.url));

async function startServer(): Promise<{ url: string; bytes: number; stop: () => void }> {
  const child = fork(path.join(here, 'catalog-server.ts'), [String(N), String(PAGE)], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, bytes } = await new Promise<{ port: number; bytes: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; bytes: number }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, bytes, stop: () => child.kill() };
}

/** The baseline: what any hand-written loop would do, no validation at all. */
async function rawLoop(url: string): Promise<number> {
  let count = 0;
  for (let offset = 0; ; offset += PAGE) {
    const res = await fetch(`${url}/v0/catalogs/search`, {
      method: 'POST',
      headers: {
        authorization: 'eok_bench',
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ limit: PAGE, offset }),
    });
    if (!res.ok) throw new Error(`raw loop: ${res.status}`);
    const body = JSON.parse(await res.text()) as { catalogs: unknown[] };
    count += body.catalogs.length;
    if (body.catalogs.length < PAGE) return count;
  }
}

async function clientLoop(url: string, prefetch: boolean): Promise<number> {
  let drift = 0;
  const client = createEoClient({
    baseUrl: url,
    apiKey: 'eok_bench',
    onSchemaDrift: () => drift++,
  });
  let count = 0;
  for await (const page of client.pages.catalogs({}, { pageSize: PAGE, prefetch })) {
    count += page.items.length;
  }
  if (drift > 0) throw new Error(`client loop: ${drift} pages drifted; the generator is wrong`);
  return count;
}

interface Timing {
  /** Wall-clock records/s: what a user waits for, but shared-machine noise shows in it. */
  readonly perSecond: number;
  /** Records per second of this process's CPU time (user + system): the client's own cost. */
  readonly perCpuSecond: number;
}

async function timed(fn: () => Promise<number>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const records = await fn();
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  if (records !== N) throw new Error(`expected ${N} records, got ${records}`);
  return {
    perSecond: (records / ms) * 1000,
    perCpuSecond: (records / (used.user + used.system)) * 1e6,
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main(): Promise<void> {
  const server = await startServer();
  try {
    console.log(
      `paging ${fmt(N)} catalog records in pages of ${PAGE} (${(server.bytes / 1e6).toFixed(1)} MB of JSON), ${ROUNDS} rounds each, alternating`,
    );
    // Warm-up: JIT, connection pool, the client's compiled checks.
    await rawLoop(server.url);
    await clientLoop(server.url, false);
    await clientLoop(server.url, true);
    const contenders = {
      raw: () => rawLoop(server.url),
      client: () => clientLoop(server.url, false),
      'client, prefetch': () => clientLoop(server.url, true),
    };
    const best: Record<string, Timing> = {};
    for (let r = 0; r < ROUNDS; r++) {
      const line: string[] = [];
      for (const [name, fn] of Object.entries(contenders)) {
        const t = await timed(fn);
        const b = best[name];
        best[name] = {
          perSecond: Math.max(b?.perSecond ?? 0, t.perSecond),
          perCpuSecond: Math.max(b?.perCpuSecond ?? 0, t.perCpuSecond),
        };
        line.push(`${name} ${fmt(t.perSecond)}/s (${fmt(t.perCpuSecond)}/cpu-s)`);
      }
      console.log(`  round ${r + 1}: ${line.join(', ')}`);
    }
    // Best of rounds: the least disturbed run of each on a shared machine.
    const raw = best.raw!;
    console.log(
      `best of ${ROUNDS}, records/s wall clock (records per CPU-second of this process):`,
    );
    console.log(
      `  raw fetch + JSON.parse            ${fmt(raw.perSecond)} (${fmt(raw.perCpuSecond)})`,
    );
    const checks: Check[] = [];
    for (const name of ['client', 'client, prefetch']) {
      const b = best[name]!;
      const ratio = b.perSecond / raw.perSecond;
      const cpuRatio = b.perCpuSecond / raw.perCpuSecond;
      const label = name === 'client' ? '@eo/api-client pages' : '@eo/api-client, prefetch: true';
      console.log(
        `  ${label.padEnd(32)} ${fmt(b.perSecond)} (${fmt(b.perCpuSecond)})  ratio ${ratio.toFixed(2)} wall, ${cpuRatio.toFixed(2)} cpu`,
      );
      checks.push({ what: `${label} / raw records/s (wall)`, value: ratio, atLeast: 0.8 });
    }
    reportVerdict('paging', checks);
  } finally {
    server.stop();
  }
}

await main();
