/**
 * Scene COGs on disk: rendered once per scene, asynchronously (batches of tiles on render
 * threads, written in file order by `@eo/geotiff`'s streaming writer to a temp file renamed
 * when complete), kept under a byte budget (least recently used out), and looked up by the
 * download operations (`ensure`) and the signed route (`serve`). README.md beside `imagery/`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { planCog, tileOrder, writeCog, type TileData } from '@eo/geotiff';
import { fileSink, nodeCompression } from '@eo/geotiff/node';
import type { SceneTilesJob, SceneTilesResult } from './job';
import { tooLargeReason, type SceneRaster } from './scene';
import { sceneCogKey, sceneCogSpec } from './spec';

export type SceneSource = 'archive' | 'catalog';
export interface SceneRef {
  readonly source: SceneSource;
  readonly id: string;
}

export type SceneCogState =
  | {
      readonly status: 'ready';
      readonly url: string;
      readonly bytes: number;
      readonly etag: string;
    }
  | { readonly status: 'rendering'; readonly tilesDone: number; readonly tiles: number }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'not-found' };

export interface SceneCogFile {
  readonly path: string;
  readonly bytes: number;
  readonly etag: string;
}

export interface SceneCogOptions {
  /** Folder of the files (`<dataDir>/rasters`). */
  readonly dir: string;
  /** Bytes of COGs kept on disk; past it the least recently used go (never the one just made). */
  readonly budgetBytes: number;
  /**
   * Runs a batch of tiles off the event loop, in `owner`'s line: it waits its turn, never
   * refused for room (the render pool's `wait`); rejects with a 503 when it ran too long.
   */
  readonly run: (owner: string, job: SceneTilesJob) => Promise<SceneTilesResult>;
  /** Batches in flight at once (the threads, plus one so none waits). */
  readonly inFlight: number;
  /** The signed URL of a root-relative path, issued to an organisation. */
  readonly sign: (pathname: string, org: string) => string;
  /** The scene a ref names, for an organisation (null: any), or null when there is none. */
  readonly lookup: (ref: SceneRef, orgId: string | null) => SceneRaster | null;
  readonly log: (msg: string, err?: unknown) => void;
  /** Epoch ms. */
  readonly now: () => number;
}

/** Pixels of one batch of tiles (a job of about a second on an idle core). */
const BATCH_PIXELS = 4 * 512 * 512;
/**
 * Times a batch is asked again after a 503 of the pool (it ran past the pool's job time, on a
 * starved machine) before its render fails. Room is never the reason: batches wait in line.
 */
const MAX_BATCH_RETRIES = 2;
/** How long a failed render is reported before the next `ensure` tries again. */
const FAILED_FOR_MS = 60_000;

export const sceneCogPath = (ref: SceneRef) =>
  `/rasters/${ref.source}/${encodeURIComponent(ref.id)}/scene.tif`;

type Render =
  | { status: 'rendering'; tilesDone: number; tiles: number; done: Promise<void> }
  | { status: 'failed'; reason: string; at: number };

export class SceneCogs {
  private readonly renders = new Map<string, Render>();
  /** Files on disk: bytes and last use (for the budget). */
  private readonly files = new Map<string, { bytes: number; usedAt: number }>();
  /** Threads that rendered tiles (tests: never the main thread, 0). */
  readonly threadIds = new Set<number>();
  private closed = false;

  constructor(private readonly opts: SceneCogOptions) {
    fs.mkdirSync(opts.dir, { recursive: true });
    for (const name of fs.readdirSync(opts.dir)) {
      const file = path.join(opts.dir, name);
      if (name.endsWith('.part')) fs.rmSync(file, { force: true }); // an interrupted render
      const m = /^([0-9a-f]{40})\.tif$/.exec(name);
      if (m) {
        const st = fs.statSync(file);
        this.files.set(m[1]!, { bytes: st.size, usedAt: st.mtimeMs });
      }
    }
  }

  /** Bytes of COGs on disk. */
  get bytes(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.bytes;
    return n;
  }

  private fileOf(key: string): string {
    return path.join(this.opts.dir, `${key}.tif`);
  }

  /** Where a scene's COG is, for an organisation: starts its render when it is missing. Never blocks. */
  ensure(orgId: string, ref: SceneRef): SceneCogState {
    const scene = this.opts.lookup(ref, orgId);
    if (!scene) return { status: 'not-found' };
    const key = sceneCogKey(scene);
    const file = this.files.get(key);
    if (file) {
      this.touch(key);
      return {
        status: 'ready',
        url: this.opts.sign(sceneCogPath(ref), orgId),
        bytes: file.bytes,
        etag: etagOf(key),
      };
    }
    return this.progress(key, scene, orgId);
  }

  /**
   * For the signed route: the scene's file when it is on disk (its use counted), else its
   * render's state (started under `owner` when missing); null when there is no such scene.
   */
  serve(ref: SceneRef, owner: string): { file: SceneCogFile } | { state: SceneCogState } | null {
    const scene = this.opts.lookup(ref, null);
    if (!scene) return null;
    const key = sceneCogKey(scene);
    const file = this.files.get(key);
    if (!file) return { state: this.progress(key, scene, owner) };
    this.touch(key);
    return { file: { path: this.fileOf(key), bytes: file.bytes, etag: etagOf(key) } };
  }

  /** The state of a render under way, failed a moment ago, or started now. */
  private progress(key: string, scene: SceneRaster, owner: string): SceneCogState {
    const r = this.renders.get(key);
    if (r?.status === 'rendering')
      return { status: 'rendering', tilesDone: r.tilesDone, tiles: r.tiles };
    if (r?.status === 'failed' && this.opts.now() - r.at < FAILED_FOR_MS)
      return { status: 'failed', reason: r.reason };
    const tooLarge = tooLargeReason(scene);
    if (tooLarge) return { status: 'failed', reason: tooLarge };
    const started = this.start(key, scene, owner);
    return { status: 'rendering', tilesDone: 0, tiles: started.tiles };
  }

  /** Resolves when every render under way has ended (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all(
      [...this.renders.values()].map((r) => (r.status === 'rendering' ? r.done : undefined)),
    );
  }

  private touch(key: string): void {
    const f = this.files.get(key)!;
    const now = this.opts.now();
    // The file's mtime keeps the order across restarts (updated at most once a minute).
    if (now - f.usedAt > 60_000)
      fs.promises.utimes(this.fileOf(key), new Date(now), new Date(now)).catch(() => undefined);
    f.usedAt = now;
  }

  private start(key: string, scene: SceneRaster, owner: string) {
    const spec = sceneCogSpec(scene);
    const layout = planCog(spec);
    const order = [...tileOrder(layout)].map((t) => [t.level, t.x, t.y] as const);
    const perBatch = Math.max(1, Math.floor(BATCH_PIXELS / (layout.tileSize * layout.tileSize)));
    const batches: (typeof order)[] = [];
    for (let i = 0; i < order.length; i += perBatch) batches.push(order.slice(i, i + perBatch));
    const render: Extract<Render, { status: 'rendering' }> = {
      status: 'rendering',
      tilesDone: 0,
      tiles: order.length,
      done: Promise.resolve(),
    };
    this.renders.set(key, render);

    // Batches run ahead of the writer (up to `inFlight`); the writer takes tiles in file order
    // and lets go of a batch once its last tile is written, so memory holds `inFlight` batches,
    // not the file (a 0.5 m scene is ~0.5 GB of tiles).
    const results = new Map<number, Promise<SceneTilesResult>>();
    let launched = 0;
    const launchUpTo = (end: number) => {
      for (; launched < Math.min(end, batches.length); launched++) {
        const b = launched;
        const result = this.runBatch(owner, { scene, tiles: batches[b]! }).then((r) => {
          if (r.tiles.length > 0) this.threadIds.add(r.threadId);
          render.tilesDone += r.tiles.length;
          return r;
        });
        result.catch(() => undefined); // awaited in order below; never unhandled
        results.set(b, result);
      }
    };
    let next = 0;
    const source = async (): Promise<TileData> => {
      const i = next++;
      const b = Math.floor(i / perBatch);
      launchUpTo(b + this.opts.inFlight);
      const batch = await results.get(b)!;
      const k = i - b * perBatch;
      if (k === batch.tiles.length - 1) results.delete(b);
      const tile = batch.tiles[k]!;
      return tile === null ? null : { encoded: tile };
    };

    const tmp = path.join(this.opts.dir, `${key}.${randomBytes(6).toString('hex')}.part`);
    render.done = (async () => {
      const fh = await fs.promises.open(tmp, 'w', 0o600);
      let size = 0;
      try {
        size = (await writeCog(spec, source, fileSink(fh), nodeCompression)).size;
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fs.promises.rename(tmp, this.fileOf(key));
      this.files.set(key, { bytes: size, usedAt: this.opts.now() });
      this.renders.delete(key);
      this.evict(key);
    })().catch((err: unknown) => {
      fs.rmSync(tmp, { force: true });
      this.opts.log(`scene COG ${scene.look.id} failed`, err);
      this.renders.set(key, { status: 'failed', reason: reasonOf(err), at: this.opts.now() });
    });
    return render;
  }

  /**
   * Runs a batch. It waits its turn in the pool (`run` queues it whatever the organisation's
   * share holds: a render has at most `inFlight` batches out, and a burst of the organisation's
   * pictures must not starve it); a 503 (the batch ran past the pool's job time) is asked again
   * after its `Retry-After`, up to `MAX_BATCH_RETRIES` times, then the render fails.
   */
  private async runBatch(owner: string, job: SceneTilesJob): Promise<SceneTilesResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.opts.run(owner, job);
      } catch (e) {
        const err = e as { status?: unknown; headers?: Record<string, string> };
        if (err.status !== 503 || attempt >= MAX_BATCH_RETRIES || this.closed) throw e;
        const afterS = Math.min(60, Math.max(1, Number(err.headers?.['retry-after']) || 1));
        await new Promise((r) => setTimeout(r, afterS * 1000).unref());
      }
    }
  }

  /** No more retries (the service is closing): renders under way fail when their jobs do. */
  close(): void {
    this.closed = true;
  }

  /** Removes the least recently used files until the budget holds (never `keep`). */
  private evict(keep: string): void {
    let total = this.bytes;
    const byAge = [...this.files.entries()]
      .filter(([k]) => k !== keep)
      .sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [key, f] of byAge) {
      if (total <= this.opts.budgetBytes) break;
      fs.rmSync(this.fileOf(key), { force: true });
      this.files.delete(key);
      total -= f.bytes;
    }
  }
}

export const etagOf = (key: string) => `"cog-${key}"`;

/** What a client may read about a failed render: its kind, never a path. */
function reasonOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC') return 'the service ran out of disk space rendering this scene';
  return 'the service could not render this scene';
}
