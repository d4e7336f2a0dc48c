/**
 * Where a first sync's client CPU goes, stage by stage, beside the floor's: the same service
 * (a child process on 127.0.0.1, so its CPU is not ours) pulled into a fresh mirror by the
 * engine and by the floor of first-sync.ts (plain fetch, JSON.parse, hand-written upserts),
 * each under V8's sampling profiler. Every sample is put in the stage of the nearest frame on
 * its stack that names one:
 *
 *   transport  undici, sockets, streams, decompression, and the pages' JSON.parse (V8 counts a
 *              builtin in its caller: @eo/api-client's transport, the floor's `readPage`)
 *   validate   zod and @eo/domain (response schemas, codecs), unless the pack called it
 *   transform  the engine's and the writers' own JavaScript (ids, rows, JSON.stringify)
 *   pack       the compact record layout (@eo/catalog-store's compact/: dictionary deflate,
 *              shared texts), the mirror's storage format
 *   sqlite     better-sqlite3's statements and transactions (the writes themselves)
 *   gc         the garbage collector
 *   other      anything else (the profiler, timers, the event loop)
 *
 * Samples count wall time between them (a busy machine stretches them), so each run's stages
 * are scaled to its measured CPU time (process.cpuUsage); the shares are the profile's.
 *
 * Target: engine client CPU <= 1.5x the floor's (the "within 1.5x of the floor"); the
 * per-stage table says which stage to cut. Several rounds, the least CPU of each.
 *
 * The engine stores catalog records as their text and packs them after the sync, when the app
 * is idle (`src/mirror/packing.ts`): that packing runs after each engine pull, outside the
 * profile, and its CPU is printed beside the figure (with engine + packing against the floor),
 * not hidden in it. The engine writes on its own connection here (`writeThreadFrom: false`): the
 * profile is one thread's, and the write thread moves the sqlite stage to the other core, not
 * its cost away (`wire.ts` measures what that buys).
 *
 * `--functions N` also lists, for each stage, the N functions the engine's least-CPU run spent
 * most samples in (self time, scaled like the stages): where to look inside a stage.
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/sync-stages.ts [--smoke] [--functions N]
 */
import fs from 'node:fs';
import { Session, type Profiler } from 'node:inspector/promises';
import path from 'node:path';
import { reportVerdict } from '@eo/bench-kit';
import { openMirrorDatabase } from '../src/db/open';
import { fmt, log, smoke, tempDir } from './common';
import { forkService } from './reference-service';
import { serviceCopy, serviceData } from './service-data';
import { engineSync, floorSync, packAll } from './sync-runs';

const RECORDS = smoke ? 500 : 50_000;
const ORDERS = smoke ? 20 : 5_000;
const ROUNDS = smoke ? 1 : 3;
const functionsAt = process.argv.indexOf('--functions');
const FUNCTIONS = functionsAt > 0 ? Number(process.argv[functionsAt + 1]) : 0;

const STAGES = ['transport', 'validate', 'transform', 'pack', 'sqlite', 'gc', 'other'] as const;
/** better-sqlite3's native methods (no URL: known by name). */
const SQLITE_NATIVES = new Set(['run', 'get', 'all', 'iterate', 'exec', 'prepare']);
type Stage = (typeof STAGES)[number];
type StageMs = Record<Stage, number>;

/** The stage a frame names, or null when it names none (look further up the stack). */
function stageOf(frame: Profiler.ProfileNode['callFrame']): Stage | null {
  const { url, functionName: fn } = frame;
  if (fn === '(garbage collector)') return 'gc';
  if (url === '') {
    if (fn === 'stringify') return 'transform';
    if (SQLITE_NATIVES.has(fn)) return 'sqlite';
    return null; // another native: its caller says what it serves
  }
  // zlib serves the transport (undici's decompression) or the storage (compact/): its caller says.
  if (url === 'node:zlib') return null;
  if (/better-sqlite3/.test(url)) return 'sqlite';
  if (/\/packages\/catalog-store\/src\/compact\//.test(url)) return 'pack';
  if (/\/zod\/|\/packages\/domain\//.test(url)) return 'validate';
  if (/undici|node:internal\/(deps\/undici|streams|net|stream_base|http|tls)|node:net/.test(url))
    return 'transport';
  if (url.startsWith('wasm://')) return 'transport'; // undici's HTTP parser (llhttp)
  if (/\/packages\/api-client\//.test(url) || fn === 'readPage') return 'transport';
  if (/\/packages\/(sync|catalog-store)\/|\/bench\//.test(url)) return 'transform';
  return null;
}

/** Where a frame is: its function, file and line (for `--functions`). */
function frameName(frame: Profiler.ProfileNode['callFrame']): string {
  const file = frame.url.split('/').slice(-2).join('/');
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
}

/**
 * Milliseconds of samples per stage (each sample goes to the nearest frame naming a stage), and
 * per stage and function (the sampled frame itself: self time).
 */
function byStage(profile: Profiler.Profile): { stages: StageMs; functions: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, Stage>();
  const stageAt = (id: number): Stage => {
    const known = memo.get(id);
    if (known) return known;
    const node = nodes.get(id)!;
    // A frame naming no stage (most natives, zlib) takes its caller's.
    const own = stageOf(node.callFrame);
    const up = parent.get(id);
    const caller = up === undefined ? 'other' : stageAt(up);
    // @eo/domain serves packing too (a packed record's context formats its instants): there it
    // is the pack's work, not validation.
    const stage = own === 'validate' && caller === 'pack' ? 'pack' : (own ?? caller);
    memo.set(id, stage);
    return stage;
  };
  const out = Object.fromEntries(STAGES.map((s) => [s, 0])) as StageMs;
  const functions = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = nodes.get(samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const stage = stageAt(samples[i]!);
    const ms = (deltas[i] ?? 0) / 1000;
    out[stage] += ms;
    const key = `${stage}\t${frameName(node.callFrame)}`;
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  return { stages: out, functions };
}

interface Profiled {
  readonly cpuMs: number;
  /** CPU of the packing after the pull (engine only; 0 for the floor). */
  readonly packingMs: number;
  readonly stages: StageMs;
  /** `stage\tfunction file:line` -> ms of self time, scaled like the stages. */
  readonly functions: Map<string, number>;
}

/** One pull into a fresh mirror, under the profiler. */
async function profiled(
  pull: (local: ReturnType<typeof openMirrorDatabase>) => Promise<void>,
  after?: (local: ReturnType<typeof openMirrorDatabase>) => Promise<void>,
): Promise<Profiled> {
  const dir = tempDir('sync-stages');
  const local = openMirrorDatabase(path.join(dir, 'mirror.db'));
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const cpu = process.cpuUsage();
    await pull(local);
    const used = process.cpuUsage(cpu);
    const { profile } = await session.post('Profiler.stop');
    const cpuMs = (used.user + used.system) / 1000;
    const sampled = byStage(profile);
    const total = Object.values(sampled.stages).reduce((a, b) => a + b, 0);
    const scale = total === 0 ? 0 : cpuMs / total;
    const stages = Object.fromEntries(
      STAGES.map((st) => [st, sampled.stages[st] * scale]),
    ) as StageMs;
    const functions = new Map([...sampled.functions].map(([k, ms]) => [k, ms * scale]));
    const packing = process.cpuUsage();
    await after?.(local);
    const packed = process.cpuUsage(packing);
    const packingMs = after ? (packed.user + packed.system) / 1000 : 0;
    return { cpuMs, packingMs, stages, functions };
  } finally {
    session.disconnect();
    local.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const source = await serviceData(RECORDS, ORDERS);
const data = serviceCopy(source);
const service = await forkService(data.dir);
try {
  log(`sync stages: ${RECORDS} catalog records + ${ORDERS} orders, ${ROUNDS} round(s) ...`);
  const floors: Profiled[] = [];
  const engines: Profiled[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    floors.push(await profiled((local) => floorSync(service, local)));
    engines.push(await profiled((local) => engineSync(service, local, true), packAll));
    const e = engines.at(-1)!;
    log(
      `  floor ${fmt(floors.at(-1)!.cpuMs)} ms CPU, engine ${fmt(e.cpuMs)} ms CPU (then packing ${fmt(e.packingMs)} ms)`,
    );
  }
  const least = (runs: Profiled[]) => runs.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
  const f = least(floors);
  const e = least(engines);
  const perRecord = (ms: number) => `${fmt((ms * 1000) / (RECORDS + ORDERS))} µs/rec`;
  const share = (ms: number, of: StageMs) =>
    `${((100 * ms) / Object.values(of).reduce((s, x) => s + x, 0)).toFixed(0)} %`;
  const rows = STAGES.map(
    (s) =>
      `  ${s.padEnd(10)} floor ${fmt(f.stages[s]).padStart(7)} ms (${share(f.stages[s], f.stages).padStart(4)})` +
      `   engine ${fmt(e.stages[s]).padStart(7)} ms (${share(e.stages[s], e.stages).padStart(4)}, ${perRecord(e.stages[s])})`,
  );
  const largest = STAGES.filter((s) => s !== 'other').reduce((a, b) =>
    e.stages[b] - f.stages[b] > e.stages[a] - f.stages[a] ? b : a,
  );
  console.log(
    [
      `sync stages${smoke ? ' (smoke sizes, not a figure)' : ''}: ${fmt(RECORDS)} catalog records + ${fmt(ORDERS)} orders, least CPU of ${ROUNDS}`,
      ...rows,
      `  client CPU: floor ${fmt(f.cpuMs)} ms, engine ${fmt(e.cpuMs)} ms -> engine / floor ${(e.cpuMs / f.cpuMs).toFixed(2)}`,
      `  packing afterwards, when idle: ${fmt(e.packingMs)} ms (${perRecord(e.packingMs)}); engine + packing / floor ${((e.cpuMs + e.packingMs) / f.cpuMs).toFixed(2)} (reported)`,
      `  the stage the engine spends most above the floor: ${largest} (+${fmt(e.stages[largest] - f.stages[largest])} ms)`,
    ].join('\n'),
  );
  if (FUNCTIONS > 0) {
    console.log(`  the engine's top ${FUNCTIONS} functions per stage (self time):`);
    for (const stage of STAGES) {
      const top = [...e.functions]
        .filter(([k]) => k.startsWith(`${stage}\t`))
        .sort((a, b) => b[1] - a[1])
        .slice(0, FUNCTIONS);
      for (const [k, ms] of top) {
        console.log(`    ${stage.padEnd(10)} ${fmt(ms).padStart(7)} ms  ${k.split('\t')[1]}`);
      }
    }
  }
  reportVerdict('sync stages', [
    { what: 'engine / floor client CPU', value: e.cpuMs / f.cpuMs, atMost: 1.5 },
  ]);
} finally {
  await service.stop();
  data.dispose();
}
