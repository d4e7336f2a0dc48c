/**
 * Starts a worker thread from an entry module that is either built JavaScript (the desktop's
 * bundle: `render-thread.cjs` beside the service's code) or a TypeScript source (tests, `tsx`
 * runs of the service): a thread does not inherit the loader that runs the sources, so a
 * source entry is imported after `tsx`'s loader is registered inside the thread.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

export function startThread(
  entry: URL,
  options: { readonly resourceLimits?: ResourceLimits; readonly name?: string } = {},
): Worker {
  const opts = { resourceLimits: options.resourceLimits, name: options.name, stdout: false };
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, opts);
  const code =
    `import(${JSON.stringify(tsxEsmApi())})` +
    `.then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(code, { ...opts, eval: true });
}

/** tsx's ES module API (its `register`), by its package's exports (a CommonJS copy misbehaves in threads of a tsx process). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return pathToFileURL(path.join(path.dirname(manifest), pkg.exports['./esm/api'].import.default))
    .href;
}
