/**
 * A field package before it is written: what it will hold (records per resource, pictures by
 * kind, offline rasters) and about how large it will be, within the byte budget given. The
 * records always go; pictures are taken in order until the budget is reached (thumbnails first,
 * then index maps, then overviews; within a kind the most recently viewed first): what does not
 * fit is counted as left out. Records alone over the budget are refused with their size.
 */
import {
  FIELD_PACKAGE_RESOURCES,
  type FieldPackageOptions,
  type FieldPackageResource,
  type ImageryChoice,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { IMAGERY_VARIANTS } from '../mirror/imagery';
import { pixelsPlan, type PixelSource, type PixelsPlan } from './pixels';
import { makeRecordReads } from './records';
import type { Selected } from './selection';

/** The package's size, per record byte of JSON: the feature layers repeat part of it. */
const RECORD_OVERHEAD = 1.5;
/** The GeoPackage's own tables, indexes and manifest. */
const FIXED_BYTES = 256 * 1024;
/** A picture's row and its relation to its footprint, beside its bytes. */
const PICTURE_ROW_BYTES = 128;

/** The records alone do not fit in the budget. */
export class PackageTooLargeError extends Error {
  constructor(
    readonly recordBytes: number,
    readonly budgetBytes: number,
  ) {
    const mb = (n: number) => (n / 1024 ** 2).toFixed(1);
    super(
      `the records (and rasters asked for) alone take about ${mb(recordBytes)} MB, over the budget of ${mb(budgetBytes)} MB: choose a smaller area or raise the budget`,
    );
    this.name = 'PackageTooLargeError';
  }
}

export interface PictureChoice {
  readonly recordId: string;
  readonly variant: string;
  readonly bytes: number;
}

/** What a package will hold, shown before it is written. */
export interface PackagePlan {
  readonly label: string;
  readonly selection: FieldPackageOptions['selection']['kind'];
  readonly imagery: ImageryChoice;
  readonly records: Partial<Record<FieldPackageResource, number>>;
  /** The records' JSON, in bytes. */
  readonly recordBytes: number;
  readonly pictures: {
    readonly thumbnail: number;
    readonly overview: number;
    readonly indexMap: number;
    readonly bytes: number;
  };
  /** Pictures the budget leaves out. */
  readonly leftOut: { readonly pictures: number; readonly bytes: number };
  readonly pixels: PixelsPlan;
  /** About how large the package will be. */
  readonly estimatedBytes: number;
  readonly budgetBytes: number | null;
}

/** The plan with what the writer needs: the ids and the pictures chosen. */
export interface PlannedPackage {
  readonly plan: PackagePlan;
  readonly selected: Selected;
  readonly pictures: readonly PictureChoice[];
}

interface PictureRow {
  record_id: string;
  variant: string;
  bytes: number;
  last_viewed_us: number;
  fetched_at_us: number;
}

const kindOf = (variant: string) =>
  variant.startsWith('index:') ? 'indexMap' : (variant as 'thumbnail' | 'overview');
const PRIORITY = { thumbnail: 0, indexMap: 1, overview: 2 } as const;

export function makePlanner(sqlite: Database.Database, pixels: PixelSource) {
  const reads = makeRecordReads(sqlite);
  const picturesOf = sqlite.prepare<[string], PictureRow>(
    'SELECT record_id, variant, bytes, last_viewed_us, fetched_at_us FROM mirror_imagery WHERE record_id = ?',
  );

  function candidates(selected: Selected, imagery: ImageryChoice): PictureRow[] {
    if (imagery === 'off') return [];
    const variants = new Set<string>(IMAGERY_VARIANTS[imagery]);
    const scenes = [...selected.ids.catalogs, ...selected.ids.archiveScenes];
    const rows = [
      ...scenes.flatMap((id) => picturesOf.all(id).filter((p) => variants.has(p.variant))),
      ...selected.ids.visualizations.flatMap((id) =>
        picturesOf.all(id).filter((p) => p.variant.startsWith('index:')),
      ),
    ];
    // Stable: the selection's order breaks ties (newest scenes first).
    return rows
      .map((r, k) => ({ r, k }))
      .sort(
        (a, b) =>
          PRIORITY[kindOf(a.r.variant)] - PRIORITY[kindOf(b.r.variant)] ||
          b.r.last_viewed_us - a.r.last_viewed_us ||
          a.k - b.k,
      )
      .map(({ r }) => r);
  }

  return function plan(selected: Selected, options: FieldPackageOptions): PlannedPackage {
    const records: Partial<Record<FieldPackageResource, number>> = {};
    let recordBytes = 0;
    for (const resource of FIELD_PACKAGE_RESOURCES) {
      let n = 0;
      for (const id of selected.ids[resource]) {
        const r = reads.read(resource, id);
        if (!r) continue;
        n++;
        recordBytes += Buffer.byteLength(r.json);
      }
      if (n > 0) records[resource] = n;
    }
    const budget = options.budgetBytes ?? null;
    // Rasters were asked for by name: they go whole, like the records, or nothing is written.
    const rasters = pixelsPlan(pixels, options.pixels ? selected : null);
    const base = Math.round(recordBytes * RECORD_OVERHEAD) + FIXED_BYTES + rasters.bytes;
    if (budget !== null && base > budget) throw new PackageTooLargeError(base, budget);
    let size = base;
    const chosen: PictureChoice[] = [];
    const counts = { thumbnail: 0, overview: 0, indexMap: 0, bytes: 0 };
    const leftOut = { pictures: 0, bytes: 0 };
    for (const p of candidates(selected, options.imagery)) {
      const cost = p.bytes + PICTURE_ROW_BYTES;
      if (budget !== null && size + cost > budget) {
        leftOut.pictures++;
        leftOut.bytes += p.bytes;
        continue;
      }
      size += cost;
      counts[kindOf(p.variant)]++;
      counts.bytes += p.bytes;
      chosen.push({ recordId: p.record_id, variant: p.variant, bytes: p.bytes });
    }
    return {
      plan: {
        label: selected.label,
        selection: options.selection.kind,
        imagery: options.imagery,
        records,
        recordBytes,
        pictures: counts,
        leftOut,
        pixels: rasters,
        estimatedBytes: size,
        budgetBytes: budget,
      },
      selected,
      pictures: chosen,
    };
  };
}
