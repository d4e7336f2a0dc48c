/** Service configuration: where data lives, how fast background work moves, what to log. */
import path from 'node:path';
import { LIMITS } from '@eo/domain';
import type { RenderPoolLimits } from './render/pool';

export interface ServerConfig {
  /** Folder holding the SQLite database and delivered manifests. */
  readonly dataDir: string;
  /** SQLite file; defaults to `<dataDir>/eo.sqlite`. */
  readonly dbFile: string;
  /** Root folder under which deliveries write their manifests. */
  readonly deliveryRoot: string;
  /** How often the background worker looks for due work (ms). 0 disables the worker loop. */
  readonly workerTickMs: number;
  /** Delay between the steps of a piece of background work (ms): small in tests, watchable in the demo. */
  readonly stepDelayMs: number;
  /** Pino log level, or false for no logs (tests). */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | false;
  /** Validate every response against the domain schema (tests: catches drift from the spec). */
  readonly validateResponses: boolean;
  /** Clock, injectable for tests. Returns epoch milliseconds. */
  readonly now: () => number;
  /**
   * Bytes of records one list page carries at most (`LIMITS.maxListPageBytes`): a page stops
   * early, with `pagination.limit` saying how many it holds. Smaller in tests.
   */
  readonly maxListPageBytes: number;
  /**
   * Origin of signed asset URLs (`https://assets.example`, no path), for pictures served
   * through another host or a CDN that forwards to this service; '' (default) emits
   * root-relative URLs on the service's own origin.
   */
  readonly assetOrigin: string;
  /**
   * Bytes of rendered `GET /v0/orders` pages kept in memory (see orders/wire-cache.ts). 0
   * keeps none: every page is read and assembled (the orders-list benchmark's uncached figure).
   */
  readonly ordersCacheBytes: number;
  /**
   * Bytes of scene COGs (the data behind download URLs) kept under `<dataDir>/rasters`; past it
   * the least recently used are removed (and rendered again when asked for).
   */
  readonly rasterCacheBytes: number;
  /** Limits of the render pool (threads, queue, per-organisation share, time, heap); unset ones default (`src/render/`). */
  readonly renderPool: Partial<RenderPoolLimits>;
}

/** '' or an http(s) origin without a trailing slash; anything else is a configuration mistake. */
export function checkAssetOrigin(origin: string): string {
  if (origin === '') return origin;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    throw new Error(`asset origin ${JSON.stringify(origin)} is not a URL`);
  }
  if (!/^https?:$/.test(u.protocol) || u.pathname !== '/' || u.search || u.hash || u.username)
    throw new Error(
      `asset origin ${JSON.stringify(origin)} must be an http(s) origin, like https://assets.example`,
    );
  return u.origin;
}

export function resolveConfig(partial: Partial<ServerConfig> & { dataDir: string }): ServerConfig {
  const dataDir = path.resolve(partial.dataDir);
  return {
    dbFile: path.join(dataDir, 'eo.sqlite'),
    deliveryRoot: path.join(dataDir, 'deliveries'),
    workerTickMs: 250,
    stepDelayMs: 2000,
    logLevel: 'info',
    validateResponses: false,
    now: () => Date.now(),
    maxListPageBytes: LIMITS.maxListPageBytes,
    ordersCacheBytes: 32 * 1024 * 1024,
    rasterCacheBytes: 4 * 1024 ** 3,
    renderPool: {},
    ...partial,
    assetOrigin: checkAssetOrigin(partial.assetOrigin ?? ''),
    dataDir,
  };
}
