/**
 * Workflows: reference data with stable ids (listed in packages/reference-service/README.md), like the
 * satellites of reference/catalog.ts. A job runs a workflow's steps over the AOIs of a
 * project. Steps are listed in a topological order (every step after those it depends on).
 *
 * What a step computes is a simulation with deterministic outputs (derived from asset ids
 * and archive metadata): the reference service shows the job lifecycle, not real raster
 * analytics.
 */
import type Database from 'better-sqlite3';
import { sceneAssetsOf, type AoiRow } from '../aois/repository';
import { stmt } from '../aois/statements';

export interface BlockInfo {
  readonly id: string;
  readonly name: string;
  readonly version: string;
}

/** What a step sees when it runs. */
export interface StepInput {
  readonly sqlite: Database.Database;
  readonly orgId: string;
  readonly projectId: string;
  /** Results of the steps this one depends on, by step key. */
  readonly upstream: Readonly<Record<string, unknown>>;
}

export type StepOutcome =
  | { ok: true; result: unknown; logs: string[] }
  | { ok: false; err: string; failureType: string; logs: string[] };

export interface WorkflowStep {
  readonly key: string;
  readonly name: string;
  readonly block: BlockInfo;
  readonly dependsOn: readonly string[];
  /** Seconds: a fixed part plus a part per AOI of the project. */
  readonly seconds: { readonly base: number; readonly perAoi: number };
  /** Tokens: a fixed part plus a part per AOI of the project. */
  readonly tokens: { readonly base: number; readonly perAoi: number };
  readonly disclaimer: readonly string[];
  run(input: StepInput): StepOutcome;
}

export interface Workflow {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly steps: readonly WorkflowStep[];
}

const SIMULATED = 'Values are simulated by the EO Field Desk reference service.';

// --- shared step logic ----------------------------------------------------------------------

interface CollectedAsset {
  asset_id: string;
  item_id: string | null;
  date: string;
}
interface CollectedAoi {
  aoi_id: string;
  name: string;
  satellite_id: string;
  assets: CollectedAsset[];
}
interface Collected {
  aois: CollectedAoi[];
}

/** A stable pseudo-random number in [0, 1) from a string (FNV-1a). */
export function unitHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function projectAois(sqlite: Database.Database, orgId: string, projectId: string): AoiRow[] {
  return stmt<[string, string], AoiRow>(
    sqlite,
    'SELECT * FROM aois WHERE org_id = ? AND project_id = ? ORDER BY seq',
  ).all(orgId, projectId);
}

const collectAois: WorkflowStep = {
  key: 'collect-aois',
  name: 'Collect AOIs',
  block: { id: 'blk-aoi-reader', name: 'AOI reader', version: '1.2.0' },
  dependsOn: [],
  seconds: { base: 5, perAoi: 1 },
  tokens: { base: 1, perAoi: 0 },
  disclaimer: [],
  run({ sqlite, orgId, projectId }) {
    const aois = projectAois(sqlite, orgId, projectId);
    const collected: Collected = {
      aois: aois
        .map((a) => ({
          aoi_id: a.id,
          name: a.name,
          satellite_id: a.satellite_id,
          assets: sceneAssetsOf(sqlite, a.id)
            .filter((s) => s.status === 'success')
            .map((s) => ({ asset_id: s.id, item_id: s.source_item_id, date: s.date })),
        }))
        .filter((a) => a.assets.length > 0),
    };
    const logs = [`project ${projectId}: ${aois.length} AOIs`];
    if (collected.aois.length === 0) {
      return {
        ok: false,
        err: `no AOI of project ${projectId} has a finished scene asset yet`,
        failureType: 'INPUT',
        logs,
      };
    }
    const n = collected.aois.reduce((s, a) => s + a.assets.length, 0);
    logs.push(`${collected.aois.length} AOIs with ${n} usable scene assets`);
    return { ok: true, result: collected, logs };
  },
};

const collected = (input: StepInput) => input.upstream['collect-aois'] as Collected;

// --- wf-ndvi-timeseries -------------------------------------------------------------------

interface NdviValue {
  aoi_id: string;
  asset_id: string;
  date: string;
  mean_ndvi: number;
}

const ndviTimeseries: Workflow = {
  id: 'wf-ndvi-timeseries',
  name: 'NDVI time series',
  description: 'Mean NDVI of every finished scene asset of the project, as one series per AOI',
  version: '1.0.0',
  steps: [
    collectAois,
    {
      key: 'compute-ndvi',
      name: 'Compute NDVI',
      block: { id: 'blk-band-math', name: 'Band math', version: '2.0.1' },
      dependsOn: ['collect-aois'],
      seconds: { base: 10, perAoi: 20 },
      tokens: { base: 2, perAoi: 5 },
      disclaimer: [SIMULATED],
      run(input) {
        const values: NdviValue[] = collected(input).aois.flatMap((a) =>
          a.assets.map((s) => ({
            aoi_id: a.aoi_id,
            asset_id: s.asset_id,
            date: s.date,
            mean_ndvi: round3(-0.1 + unitHash(s.asset_id) * 0.9),
          })),
        );
        return { ok: true, result: { values }, logs: [`${values.length} NDVI rasters`] };
      },
    },
    {
      key: 'build-timeseries',
      name: 'Build time series',
      block: { id: 'blk-timeseries', name: 'Time series', version: '1.0.0' },
      dependsOn: ['compute-ndvi'],
      seconds: { base: 5, perAoi: 2 },
      tokens: { base: 1, perAoi: 1 },
      disclaimer: [SIMULATED],
      run(input) {
        const { values } = input.upstream['compute-ndvi'] as { values: NdviValue[] };
        const byAoi = new Map<string, { date: string; mean_ndvi: number }[]>();
        for (const v of values) {
          const points = byAoi.get(v.aoi_id) ?? [];
          points.push({ date: v.date, mean_ndvi: v.mean_ndvi });
          byAoi.set(v.aoi_id, points);
        }
        const series = [...byAoi].map(([aoi_id, points]) => ({
          aoi_id,
          points: points.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
        }));
        return { ok: true, result: { series }, logs: [`${series.length} series`] };
      },
    },
  ],
};

// --- wf-change-detection ------------------------------------------------------------------

interface ScenePair {
  aoi_id: string;
  before: CollectedAsset;
  after: CollectedAsset;
}

const changeDetection: Workflow = {
  id: 'wf-change-detection',
  name: 'Change detection',
  description: 'Compares the earliest and latest finished scenes of each AOI of the project',
  version: '1.0.0',
  steps: [
    collectAois,
    {
      key: 'select-pairs',
      name: 'Select scene pairs',
      block: { id: 'blk-pair-selector', name: 'Pair selector', version: '1.1.0' },
      dependsOn: ['collect-aois'],
      seconds: { base: 2, perAoi: 1 },
      tokens: { base: 1, perAoi: 0 },
      disclaimer: [],
      run(input) {
        const pairs: ScenePair[] = [];
        for (const a of collected(input).aois) {
          const sorted = [...a.assets].sort((x, y) => (x.date < y.date ? -1 : 1));
          const before = sorted[0]!;
          const after = sorted[sorted.length - 1]!;
          if (before.date !== after.date) pairs.push({ aoi_id: a.aoi_id, before, after });
        }
        if (pairs.length === 0) {
          return {
            ok: false,
            err: 'no AOI has finished scene assets on two different dates',
            failureType: 'INPUT',
            logs: ['0 pairs'],
          };
        }
        return { ok: true, result: { pairs }, logs: [`${pairs.length} pairs`] };
      },
    },
    {
      key: 'detect-changes',
      name: 'Detect changes',
      block: { id: 'blk-change-detector', name: 'Change detector', version: '0.9.3' },
      dependsOn: ['select-pairs'],
      seconds: { base: 15, perAoi: 30 },
      tokens: { base: 3, perAoi: 8 },
      disclaimer: [SIMULATED, 'Change detection is sensitive to cloud cover differences.'],
      run(input) {
        const { pairs } = input.upstream['select-pairs'] as { pairs: ScenePair[] };
        const changes = pairs.map((p) => ({
          aoi_id: p.aoi_id,
          from_date: p.before.date,
          to_date: p.after.date,
          changed_fraction: round3(unitHash(`${p.before.asset_id}|${p.after.asset_id}`) * 0.4),
        }));
        return { ok: true, result: { changes }, logs: [`${changes.length} change maps`] };
      },
    },
  ],
};

// --- wf-cloud-mask ------------------------------------------------------------------------

interface Fraction {
  asset_id: string;
  fraction: number;
}

const cloudMask: Workflow = {
  id: 'wf-cloud-mask',
  name: 'Cloud mask',
  description: 'Cloud and cloud-shadow masks of every finished scene asset of the project',
  version: '1.0.0',
  steps: [
    collectAois,
    {
      key: 'detect-clouds',
      name: 'Detect clouds',
      block: { id: 'blk-cloud-detector', name: 'Cloud detector', version: '3.2.0' },
      dependsOn: ['collect-aois'],
      seconds: { base: 5, perAoi: 10 },
      tokens: { base: 1, perAoi: 3 },
      disclaimer: ['Cloud fractions come from the archive scene metadata (eo:cloud_cover).'],
      run(input) {
        const cloudCover = stmt<[string], { cloud_cover: number }>(
          input.sqlite,
          'SELECT cloud_cover FROM archive_scenes WHERE id = ?',
        );
        const clouds: Fraction[] = collected(input).aois.flatMap((a) =>
          a.assets.map((s) => ({
            asset_id: s.asset_id,
            fraction: round3((cloudCover.get(s.item_id ?? '')?.cloud_cover ?? 0) / 100),
          })),
        );
        return { ok: true, result: { clouds }, logs: [`${clouds.length} cloud masks`] };
      },
    },
    {
      key: 'detect-shadows',
      name: 'Detect cloud shadows',
      block: { id: 'blk-shadow-detector', name: 'Shadow detector', version: '1.0.4' },
      dependsOn: ['collect-aois'],
      seconds: { base: 5, perAoi: 10 },
      tokens: { base: 1, perAoi: 2 },
      disclaimer: [SIMULATED],
      run(input) {
        const shadows: Fraction[] = collected(input).aois.flatMap((a) =>
          a.assets.map((s) => ({
            asset_id: s.asset_id,
            fraction: round3(unitHash(s.asset_id) * 0.1),
          })),
        );
        return { ok: true, result: { shadows }, logs: [`${shadows.length} shadow masks`] };
      },
    },
    {
      key: 'merge-masks',
      name: 'Merge masks',
      block: { id: 'blk-mask-merger', name: 'Mask merger', version: '1.0.0' },
      dependsOn: ['detect-clouds', 'detect-shadows'],
      seconds: { base: 3, perAoi: 2 },
      tokens: { base: 1, perAoi: 1 },
      disclaimer: [],
      run(input) {
        const { clouds } = input.upstream['detect-clouds'] as { clouds: Fraction[] };
        const { shadows } = input.upstream['detect-shadows'] as { shadows: Fraction[] };
        const shadowOf = new Map(shadows.map((s) => [s.asset_id, s.fraction]));
        const masks = clouds.map((c) => ({
          asset_id: c.asset_id,
          cloud_fraction: c.fraction,
          shadow_fraction: shadowOf.get(c.asset_id) ?? 0,
          clear_fraction: round3(Math.max(0, 1 - c.fraction - (shadowOf.get(c.asset_id) ?? 0))),
        }));
        return { ok: true, result: { masks }, logs: [`${masks.length} merged masks`] };
      },
    },
  ],
};

export const WORKFLOWS: readonly Workflow[] = [ndviTimeseries, changeDetection, cloudMask];

export const workflowById = (id: string) => WORKFLOWS.find((w) => w.id === id);

/** Seconds and tokens a job of the workflow is expected to take for `aoiCount` AOIs. */
export function estimate(w: Workflow, aoiCount: number): { seconds: number; tokens: number } {
  let seconds = 0;
  let tokens = 0;
  for (const s of w.steps) {
    seconds += s.seconds.base + s.seconds.perAoi * aoiCount;
    tokens += s.tokens.base + s.tokens.perAoi * aoiCount;
  }
  return { seconds, tokens };
}

/** The raw specification of a job (its `spec`): the workflow as JSON. */
export function workflowSpec(w: Workflow, projectId: string): string {
  return JSON.stringify({
    workflow_id: w.id,
    version: w.version,
    project_id: projectId,
    steps: w.steps.map((s) => ({
      key: s.key,
      name: s.name,
      block: s.block,
      depends_on: s.dependsOn,
    })),
  });
}
