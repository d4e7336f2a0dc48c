/**
 * Demo data: on the first start with an empty data dir, the demo organisation, its users and
 * projects, a demo API key (returned so the CLI prints it once), preset indices, the archive
 * (deterministic scenes, `scenes.ts`), a few demo catalog records and, when asked, the field
 * sites (`demo-sites.ts`). Idempotent: running it on
 * a seeded database changes nothing, except that asking for more scenes than the archive holds
 * adds the missing ones (the generator's first N scenes are always the same N).
 */
import type Database from 'better-sqlite3';
import { makeArchiveInserter } from '../archive/repository';
import { makeCatalogInserter } from '../catalog/repository';
import { seedPresetIndices } from '../indices/presets';
import { createApiKey, createOrganization, createProject, createUser } from '../orgs/repository';
import { DEMO } from '@eo/fixtures';
import { DEMO_CATALOG_EVERY, DEMO_CATALOG_MAX, demoCatalogRecord } from './demo-catalog';
import { seedDemoSites } from './demo-sites';
import { generateScenes, type GeneratedScene } from './scenes';

export const DEFAULT_SEED_SCENES = 3000;
/** Scenes per transaction: large enough that commits cost nothing, small enough to show progress. */
const BATCH = 50_000;

export interface SeedOptions {
  /** Archive scenes to generate (default: a few thousand). */
  readonly scenes?: number;
  readonly nowMs: number;
  /** Called after each committed batch with the number of scenes in the archive. */
  readonly onProgress?: (scenes: number) => void;
  /**
   * Add the field sites (`demo-sites.ts`: places seen on several dates). The service's first
   * start and the desktop's embedded service do; tests that count the seed's records do not.
   */
  readonly sites?: boolean;
}

export interface SeedResult {
  /** The demo key in clear, only when it was created by this call. */
  readonly demoKey?: string;
  /** Scenes added by this call. */
  readonly scenesAdded: number;
  /** Catalog records added by this call. */
  readonly catalogAdded: number;
}

export function isSeeded(sqlite: Database.Database): boolean {
  return sqlite.prepare('SELECT 1 FROM organizations WHERE id = ?').get(DEMO.orgId) !== undefined;
}

export function seedDemo(sqlite: Database.Database, opts: SeedOptions): SeedResult {
  const nowUs = opts.nowMs * 1000;
  seedPresetIndices(sqlite, nowUs);
  const demoKey = isSeeded(sqlite)
    ? undefined
    : sqlite.transaction((): string => {
        createOrganization(sqlite, { id: DEMO.orgId, name: DEMO.orgName }, opts.nowMs);
        for (const u of DEMO.users) createUser(sqlite, { ...u, orgId: DEMO.orgId }, opts.nowMs);
        for (const p of DEMO.projects)
          createProject(sqlite, { ...p, orgId: DEMO.orgId }, opts.nowMs);
        return createApiKey(
          sqlite,
          { orgId: DEMO.orgId, userId: DEMO.users[0].id, label: 'demo' },
          opts.nowMs,
        );
      })();
  const { scenesAdded, catalogAdded } = seedArchive(sqlite, {
    scenes: opts.scenes ?? DEFAULT_SEED_SCENES,
    nowUs,
    onProgress: opts.onProgress,
  });
  const sitesAdded = opts.sites ? seedDemoSites(sqlite, opts.nowMs) : 0;
  return {
    ...(demoKey ? { demoKey } : {}),
    scenesAdded,
    catalogAdded: catalogAdded + sitesAdded,
  };
}

/**
 * Fills the archive up to `scenes` generated scenes, in batched transactions, and makes every
 * `DEMO_CATALOG_EVERY`-th scene (up to `DEMO_CATALOG_MAX`) a demo catalog record.
 */
function seedArchive(
  sqlite: Database.Database,
  opts: { scenes: number; nowUs: number; onProgress?: ((n: number) => void) | undefined },
): { scenesAdded: number; catalogAdded: number } {
  const existing = (
    sqlite.prepare('SELECT count(*) AS n FROM archive_scenes').get() as { n: number }
  ).n;
  if (existing >= opts.scenes) return { scenesAdded: 0, catalogAdded: 0 };
  const insertScene = makeArchiveInserter(sqlite);
  const insertRecord = makeCatalogInserter(sqlite);
  const hasRecord = sqlite.prepare('SELECT 1 FROM catalog_records WHERE id = ?');
  const scenes = generateScenes({ count: opts.scenes, assets: false });
  let index = 0;
  let scenesAdded = 0;
  let catalogAdded = 0;
  // Skip what an earlier, smaller seed already inserted (same generator, same first scenes).
  while (index < existing && !scenes.next().done) index++;
  const batch = sqlite.transaction((limit: number) => {
    const chunk: Array<{ scene: GeneratedScene; index: number }> = [];
    for (let n = 0; n < limit; n++) {
      const next = scenes.next();
      if (next.done) break;
      chunk.push({ scene: next.value, index: index++ });
    }
    // In time order, so the B-tree inserts of the (collection|satellite, datetime) and id
    // indexes land near each other instead of all over the file.
    chunk.sort((a, b) => (a.scene.feature.id < b.scene.feature.id ? -1 : 1));
    for (const { scene, index: i } of chunk) {
      insertScene(scene.feature, scene.satelliteId);
      scenesAdded++;
      const k = i / DEMO_CATALOG_EVERY;
      if (i % DEMO_CATALOG_EVERY === 0 && k < DEMO_CATALOG_MAX) {
        const id = `cat-demo-${String(k + 1).padStart(4, '0')}`;
        if (!hasRecord.get(id)) {
          insertRecord(
            demoCatalogRecord(scene, {
              id,
              orgId: DEMO.orgId,
              userId: DEMO.users[0].id,
              nowUs: opts.nowUs,
              jitter: (k * 0.618) % 1,
            }),
            { orgId: DEMO.orgId, orderId: null, orderItemId: null },
          );
          catalogAdded++;
        }
      }
    }
    return chunk.length === limit;
  });
  // A large page cache while bulk-inserting keeps the indexes' B-trees in memory.
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('cache_size = -1000000');
  try {
    while (batch(BATCH)) opts.onProgress?.(index);
  } finally {
    sqlite.pragma(`cache_size = ${cacheSize}`);
  }
  opts.onProgress?.(index);
  return { scenesAdded, catalogAdded };
}
