/**
 * Worker threads for scene tiles (until the service's shared render pool takes this job): a
 * few threads, started on the first job, one job at a time each, jobs waiting in order. The
 * event loop never renders a pixel.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SceneTilesJob, SceneTilesResult } from './job';

interface Pending {
  readonly id: number;
  readonly job: SceneTilesJob;
  resolve(r: SceneTilesResult): void;
  reject(e: Error): void;
}

/** tsx's ES module API, to load a TypeScript entry inside a thread (tests and `tsx` runs). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return pathToFileURL(path.join(path.dirname(manifest), pkg.exports['./esm/api'].import.default))
    .href;
}

function startWorker(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { name: 'scene-tiles' });
  const code =
    `import(${JSON.stringify(tsxEsmApi())})` +
    `.then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(code, { eval: true, name: 'scene-tiles' });
}

export class SceneTileThreads {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly threads: number,
    private readonly entry = new URL('./thread-entry.ts', import.meta.url),
  ) {}

  run(job: SceneTilesJob): Promise<SceneTilesResult> {
    if (this.closed) return Promise.reject(new Error('the scene tile threads are closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('the service is shutting down'));
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.busy.size < this.threads ? this.start() : undefined);
      if (!worker) return;
      const p = this.queue.shift()!;
      this.busy.set(worker, p);
      worker.ref();
      worker.postMessage({ id: p.id, job: p.job });
    }
  }

  private start(): Worker {
    const worker = startWorker(this.entry);
    worker.unref();
    worker.on('message', (m: { id: number; result?: SceneTilesResult; error?: string }) => {
      const p = this.busy.get(worker);
      if (!p || p.id !== m.id) return;
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (m.error !== undefined) p.reject(new Error(`scene tiles: ${m.error}`));
      else p.resolve(m.result!);
      this.dispatch();
    });
    worker.on('error', () => undefined);
    worker.on('exit', (code) => {
      const p = this.busy.get(worker);
      this.busy.delete(worker);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      p?.reject(new Error(`a scene tile thread ended (exit code ${code})`));
      if (!this.closed) this.dispatch();
    });
    return worker;
  }
}
