/**
 * Turns the validated create-order request into priced, checked order items: everything
 * POST /v0/orders computes before it writes (and all a dry run returns). Mistakes the
 * domain schema cannot see (projects of another organisation, unknown archive ids,
 * unknown bandsets, too many occurrences) are collected over every item and thrown as one
 * 400 with a path per problem.
 */
import type {
  ErrorDetail,
  FeasibilityStatus,
  Geometry,
  Instant,
  OrderItemInput,
  OrderItemType,
  Recurrence,
} from '@eo/domain';
import {
  bandsetFits,
  geometryIntersects,
  geometryBbox,
  orderItemTypeOf,
  parseRfc3339,
  sharedBandset,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { getArchiveScenes, sceneFeature, type ArchiveSceneRow } from '../archive/repository';
import { ApiError } from '../http/errors';
import {
  BANDSETS,
  bandsetById,
  satelliteById,
  type BandsetDef,
  type Satellite,
} from '../reference/catalog';
import {
  DEFAULT_TASKING_CLOUD_COVER,
  DEFAULT_TASKING_OFF_NADIR,
  expectedAcquisitions,
  feasibilityOf,
  worstFeasibility,
} from './feasibility';
import { featureCollectionAreaKm2, featureGeometries, footprintsCover } from './geo';
import { recurringWindows, windowDays, type Window } from './occurrences';
import { MIN_BILLABLE_KM2, priceItem, type Price } from './pricing';
import { HIGH_OFF_NADIR_DEG, SHORT_WINDOW_DAYS, type ValidationNote } from './validation-errors';

/** Bandset used when a tasking item names none. */
export const DEFAULT_TASKING_BANDSET = 'bs-aurora-rgbn';

export interface BandsetOut {
  bandset_id: string;
  bands: Array<{ name: string; wavelength: number }>;
  custom: number[][];
}

export interface QuotedItem {
  readonly input: OrderItemInput;
  readonly position: number;
  readonly type: OrderItemType;
  readonly satellite: Satellite;
  readonly bandset: BandsetOut;
  readonly areaKm2: number;
  readonly price: Price;
  readonly feasibility: FeasibilityStatus;
  readonly recurrence: Recurrence;
  readonly deliverySpeed: NonNullable<OrderItemInput['delivery_speed']>;
  readonly cloudCover: number | null;
  readonly offNadir: number | null;
  readonly startDate: Instant | null;
  readonly endDate: Instant | null;
  /** Acquisition windows (null for ARCHIVE). */
  readonly windows: Window[] | null;
  readonly noOfOccurrences: number;
  /** ARCHIVE: the ordered scenes, in request order. */
  readonly scenes: ArchiveSceneRow[];
  readonly images: Array<{ item_id: string; geometry: Geometry }>;
  readonly validationErrors: ValidationNote[];
}

function bandsetOut(def: BandsetDef, satellite: Satellite): BandsetOut {
  return {
    bandset_id: def.id,
    bands: def.bands.map((name) => ({
      name,
      wavelength: satellite.bands.find((b) => b.name === name)?.wavelength ?? 0,
    })),
    custom: [],
  };
}

/** The domain's rule (`bandsetFits`), shared with the client's offline check. */
const bandsOf = (satellite: Satellite) => satellite.bands.map((b) => b.name);
const fits = (def: BandsetDef, satellite: Satellite) => bandsetFits(def.bands, bandsOf(satellite));

/**
 * Where one item's findings go: a `problem` makes the whole request a 400 (its path is the
 * body path); a `note` is kept on the item as a validation error and the order still goes in.
 */
interface ItemFindings {
  /** `order_items.N`: the item's body path. */
  readonly at: string;
  problem(path: string, message: string): void;
  note(code: ValidationNote['code'], field: string, message: string): void;
}

export function quoteOrder(
  sqlite: Database.Database,
  orgId: string,
  nowUs: Instant,
  items: readonly OrderItemInput[],
): QuotedItem[] {
  const details: ErrorDetail[] = [];
  const problem = (path: string, message: string) =>
    details.push({ path, message, in: 'body' } as ErrorDetail);
  const projectOk = sqlite.prepare<[string, string], { ok: number }>(
    'SELECT 1 AS ok FROM projects WHERE id = ? AND org_id = ?',
  );
  const allScenes = getArchiveScenes(
    sqlite,
    items.flatMap((i) => i.item_ids ?? []),
  );

  const quoted = items.map((input, position) => {
    const at = `order_items.${position}`;
    const before = details.length;
    if (!projectOk.get(input.project_id, orgId)) {
      problem(`${at}.project_id`, `unknown project ${JSON.stringify(input.project_id)}`);
    }
    const notes: ValidationNote[] = [];
    const findings: ItemFindings = {
      at,
      problem,
      note: (code, field, message) => notes.push({ code, field, message }),
    };
    const type = orderItemTypeOf(input);
    const sensor = itemSensor(findings, input, type, allScenes);
    const schedule = itemSchedule(findings, input, type);
    if (details.length > before || !sensor.satellite || !sensor.bandsetDef) return undefined;
    return quoteItem(findings, notes, {
      input,
      position,
      type,
      nowUs,
      satellite: sensor.satellite,
      bandsetDef: sensor.bandsetDef,
      scenes: sensor.scenes,
      schedule,
    });
  });

  if (details.length > 0) {
    const first = details[0]!;
    throw new ApiError(
      400,
      'validation_failed',
      `Invalid body: ${first.path}: ${first.message}`,
      details,
    );
  }
  return quoted as QuotedItem[];
}

/** The item's satellite and bandset (and, for ARCHIVE, its scenes in request order). */
function itemSensor(
  f: ItemFindings,
  input: OrderItemInput,
  type: OrderItemType,
  allScenes: ReadonlyMap<string, ArchiveSceneRow>,
): { satellite?: Satellite; bandsetDef?: BandsetDef; scenes: ArchiveSceneRow[] } {
  const { at, problem } = f;
  let bandsetDef: BandsetDef | undefined;
  const givenBandset = input.bandset?.bandset_id;
  if (givenBandset !== undefined) {
    bandsetDef = bandsetById(givenBandset);
    if (!bandsetDef) {
      problem(`${at}.bandset.bandset_id`, `unknown bandset ${JSON.stringify(givenBandset)}`);
    }
  }
  if (type !== 'ARCHIVE') {
    bandsetDef ??= givenBandset === undefined ? bandsetById(DEFAULT_TASKING_BANDSET) : undefined;
    const satellite = bandsetDef ? satelliteById(bandsetDef.satelliteId) : undefined;
    return { satellite, bandsetDef, scenes: [] };
  }
  const scenes: ArchiveSceneRow[] = [];
  const seen = new Set<string>();
  (input.item_ids ?? []).forEach((id, k) => {
    const row = allScenes.get(id);
    if (seen.has(id)) problem(`${at}.item_ids.${k}`, `duplicate archive item id ${id}`);
    else if (!row) problem(`${at}.item_ids.${k}`, `unknown archive item ${JSON.stringify(id)}`);
    else scenes.push(row);
    seen.add(id);
  });
  const sceneSats = scenes.map((s) => satelliteById(s.satellite_id));
  if (sceneSats.some((s) => !s)) throw new Error('archive scene of an unknown satellite');
  const satellite = sceneSats[0];
  if (satellite && bandsetDef) {
    const k = sceneSats.findIndex((s) => !fits(bandsetDef!, s!));
    if (k >= 0) {
      problem(
        `${at}.bandset.bandset_id`,
        `bandset ${bandsetDef.id} is not offered by ${sceneSats[k]!.id} (scene ${scenes[k]!.id})`,
      );
    }
  } else if (satellite && givenBandset === undefined) {
    bandsetDef = sharedBandset(
      BANDSETS,
      sceneSats.map((s) => bandsOf(s!)),
    );
    if (!bandsetDef) {
      const k = sceneSats.findIndex((s) => s!.id !== satellite.id);
      problem(
        `${at}.item_ids.${k}`,
        `scenes of ${satellite.id} and ${sceneSats[k]!.id} share no bandset; order them as separate items`,
      );
    }
  }
  return { satellite, bandsetDef, scenes };
}

interface ItemSchedule {
  readonly startDate: Instant | null;
  readonly endDate: Instant | null;
  readonly recurrence: Recurrence;
  /** Acquisition windows (null for ARCHIVE, or when the occurrences do not fit). */
  readonly windows: Window[] | null;
  readonly noOfOccurrences: number;
}

/** The item's dates and its acquisition windows. */
function itemSchedule(f: ItemFindings, input: OrderItemInput, type: OrderItemType): ItemSchedule {
  const startDate = input.start_date ? parseRfc3339(input.start_date) : null;
  const endDate = input.end_date ? parseRfc3339(input.end_date) : null;
  const recurrence: Recurrence = input.recurrence ?? 'ONCE';
  const schedule = { startDate, endDate, recurrence, windows: null, noOfOccurrences: 1 };
  if (type === 'TASKING') {
    // The request schema rejects no_of_occurrences > 1 on a ONCE item, so there is one window.
    return { ...schedule, windows: [{ start: startDate!, end: endDate! }] };
  }
  if (type !== 'RECURRING') return schedule;
  const r = recurringWindows(
    startDate!,
    endDate!,
    recurrence as Exclude<Recurrence, 'ONCE'>,
    input.no_of_occurrences!,
  );
  if (!r.ok) {
    f.problem(
      `${f.at}.no_of_occurrences`,
      `only ${r.fit} ${recurrence.toLowerCase()} occurrence(s) fit between start_date and end_date, not ${input.no_of_occurrences}`,
    );
    return schedule;
  }
  const last = r.windows[r.windows.length - 1]!;
  if (last.end < endDate!) {
    f.note(
      'OCCURRENCES_END_BEFORE_END_DATE',
      'no_of_occurrences',
      `the ${r.windows.length} occurrence(s) end at ${new Date(last.end / 1000).toISOString()}, before end_date`,
    );
  }
  return { ...schedule, windows: r.windows, noOfOccurrences: r.windows.length };
}

interface CheckedItem {
  readonly input: OrderItemInput;
  readonly position: number;
  readonly type: OrderItemType;
  readonly nowUs: Instant;
  readonly satellite: Satellite;
  readonly bandsetDef: BandsetDef;
  readonly scenes: ArchiveSceneRow[];
  readonly schedule: ItemSchedule;
}

/** Area, price, feasibility and archive coverage of an item whose references all resolved. */
function quoteItem(f: ItemFindings, notes: ValidationNote[], item: CheckedItem): QuotedItem {
  const { input, type, satellite, scenes, schedule } = item;
  const geometries = featureGeometries(input.geometry);
  const areaKm2 = featureCollectionAreaKm2(input.geometry);
  if (areaKm2 < MIN_BILLABLE_KM2[type]) {
    f.note(
      'BELOW_MINIMUM_AREA',
      'geometry',
      `the geometry covers ${areaKm2.toFixed(3)} km²; ${type.toLowerCase()} items are billed for at least ${MIN_BILLABLE_KM2[type]} km²`,
    );
  }
  const tasked = type !== 'ARCHIVE';
  const cloudCover = input.cloud_cover ?? (tasked ? DEFAULT_TASKING_CLOUD_COVER : null);
  const offNadir = input.off_nadir ?? (tasked ? DEFAULT_TASKING_OFF_NADIR : null);
  const deliverySpeed = input.delivery_speed ?? 'STANDARD';
  const price = priceItem({
    type,
    areaKm2,
    occurrences: schedule.noOfOccurrences,
    deliverySpeed,
    cloudCover,
    offNadir,
    satellite,
  });
  const feasibility =
    tasked && schedule.windows
      ? taskingFeasibility(f, type, schedule.windows, item.nowUs, satellite, cloudCover!, offNadir!)
      : 'SUCCESS';
  const images = scenes.map((s) => ({
    item_id: s.id,
    geometry: sceneFeature(s).geometry as Geometry,
  }));
  if (type === 'ARCHIVE') archiveCoverage(f, input, scenes, images, geometries);

  return {
    input,
    position: item.position,
    type,
    satellite,
    bandset: bandsetOut(item.bandsetDef, satellite),
    areaKm2,
    price,
    feasibility,
    recurrence: type === 'ARCHIVE' ? 'ONCE' : schedule.recurrence,
    deliverySpeed,
    cloudCover,
    offNadir,
    startDate: schedule.startDate,
    endDate: schedule.endDate,
    windows: schedule.windows,
    noOfOccurrences: schedule.noOfOccurrences,
    scenes,
    images,
    validationErrors: notes,
  };
}

/** The worst window's feasibility of a tasked item, with notes on each window that needs one. */
function taskingFeasibility(
  f: ItemFindings,
  type: OrderItemType,
  windows: readonly Window[],
  nowUs: Instant,
  satellite: Satellite,
  cloudCover: number,
  offNadir: number,
): FeasibilityStatus {
  const { note } = f;
  if (offNadir > HIGH_OFF_NADIR_DEG) {
    note(
      'HIGH_OFF_NADIR',
      'off_nadir',
      `off_nadir ${offNadir}° is above ${HIGH_OFF_NADIR_DEG}°: images will be distorted and coarser`,
    );
  }
  let feasibility: FeasibilityStatus = 'SUCCESS';
  let lowest = Infinity;
  for (const [k, w] of windows.entries()) {
    const where = type === 'RECURRING' ? ` (occurrence ${k})` : '';
    if (w.end <= nowUs) {
      note('WINDOW_IN_PAST', 'end_date', `the acquisition window${where} is already over`);
    } else if (k === 0 && w.start < nowUs) {
      note(
        'WINDOW_STARTS_IN_PAST',
        'start_date',
        'start_date is in the past; only the rest of the window can be used',
      );
    }
    if (windowDays(w) < SHORT_WINDOW_DAYS && (k === 0 || k === windows.length - 1)) {
      note(
        'SHORT_WINDOW',
        'end_date',
        `the acquisition window${where} is shorter than ${SHORT_WINDOW_DAYS} days`,
      );
    }
    const expected = expectedAcquisitions(w, nowUs, satellite, cloudCover, offNadir);
    lowest = Math.min(lowest, expected);
    feasibility = worstFeasibility(feasibility, feasibilityOf(expected));
  }
  if (feasibility === 'FAILED') {
    note(
      'INFEASIBLE',
      'feasibility_status',
      `about ${lowest.toFixed(2)} usable acquisition(s) expected: widen the window or relax cloud_cover / off_nadir; the item will fail and be refunded`,
    );
  } else if (feasibility === 'WEAK_SUCCESS') {
    note(
      'WEAK_FEASIBILITY',
      'feasibility_status',
      `about ${lowest.toFixed(2)} usable acquisition(s) expected in the weakest window`,
    );
  }
  return feasibility;
}

/** Notes on archive scenes that miss the geometry or pass the item's limits. */
function archiveCoverage(
  f: ItemFindings,
  input: OrderItemInput,
  scenes: readonly ArchiveSceneRow[],
  images: ReadonlyArray<{ geometry: Geometry }>,
  geometries: readonly Geometry[],
): void {
  const { note } = f;
  const footprints = images.map((i) => i.geometry);
  scenes.forEach((s, k) => {
    if (!geometries.some((g) => geometryIntersects(footprints[k]!, g))) {
      note('SCENE_OUTSIDE_GEOMETRY', `item_ids.${k}`, `scene ${s.id} does not touch the geometry`);
    }
    if (input.cloud_cover !== undefined && s.cloud_cover > input.cloud_cover) {
      note(
        'SCENE_CLOUD_COVER_ABOVE_LIMIT',
        `item_ids.${k}`,
        `scene ${s.id} has ${s.cloud_cover}% cloud cover, above cloud_cover ${input.cloud_cover}`,
      );
    }
    if (input.off_nadir !== undefined && s.off_nadir > input.off_nadir) {
      note(
        'SCENE_OFF_NADIR_ABOVE_LIMIT',
        `item_ids.${k}`,
        `scene ${s.id} was taken ${s.off_nadir}° off-nadir, above off_nadir ${input.off_nadir}`,
      );
    }
  });
  if (!geometries.every((g) => footprintsCover(footprints, g))) {
    note('GEOMETRY_NOT_COVERED', 'geometry', 'the scenes do not cover the whole geometry');
  }
}

/** Strips needed to cover a geometry: its east-west extent over the satellite's swath. */
export function stripsFor(geometries: readonly Geometry[], satellite: Satellite): number {
  let west = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  let south = Infinity;
  for (const g of geometries) {
    const [w, s, e, n] = geometryBbox(g)!;
    west = Math.min(west, w);
    east = Math.max(east, e);
    south = Math.min(south, s);
    north = Math.max(north, n);
  }
  const midLat = ((north + south) / 2) * (Math.PI / 180);
  const widthKm = (east - west) * 111.32 * Math.cos(midLat);
  return Math.max(1, Math.ceil(widthKm / satellite.swathKm));
}
