/**
 * `eo import <file> [--as aois|order-items] [--pick 1,3-5] [--name-field F] [--merge]
 * [--dry-run] (--json FIELDS | --file FIELDS)`: a field file (KML, KMZ, GPX, zipped Shapefile, GeoPackage,
 * GeoJSON, CSV; read by @eo/formats) previewed and queued in the outbox, offline:
 * - `aois` (default): one AOI create per feature (`--merge`: one AOI of all of them), its
 *   name from the feature, its other fields (project_id, satellite_id, provider, item_ids,
 *   description) from FIELDS;
 * - `order-items`: one order create with an item per feature (`--merge`: one item whose
 *   FeatureCollection holds every area), each item's other fields from FIELDS.
 * `--pick` takes some features by their number in the preview (a GPX's track without its
 * waypoints); only those must be areas.
 * All or nothing: a file that cannot be read, a feature that is not a valid area, or an input
 * the outbox refuses, and nothing is queued (the entries go in one transaction).
 * `--dry-run` previews and checks the inputs against the same schemas without a database.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  CreateAoiRequest,
  OpenCreateOrderRequest,
  type FeatureCollectionInput,
  type Geometry,
} from '@eo/domain';
import {
  FormatError,
  importFileInWorker,
  mergeAreas,
  type ImportPreview,
  type PreviewFeature,
} from '@eo/formats';
import { createOutbox, OutboxInputError, type OutboxEntry } from '../outbox/index';
import { listFlag, UsageError } from './args';
import { CliFailure, type CommandContext, type CommandSpec } from './context';
import { EXIT, resolvePath } from './io';
import { jsonInput } from './json-input';
import { writeJson, writeTable } from './output';

const TARGETS = ['aois', 'order-items'] as const;
type Target = (typeof TARGETS)[number];

interface Queued {
  readonly kind: 'aoi' | 'order';
  readonly input: Record<string, unknown>;
  /** What the input's field problems are reported under ("feature 3 (Wiese)"). */
  readonly label: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const areaCollection = (areas: readonly Geometry[]): FeatureCollectionInput => ({
  type: 'FeatureCollection',
  features: areas.map((geometry) => ({ type: 'Feature', geometry, properties: {} })),
});

/** `--pick 1,3-5`: feature numbers of the preview (1-based), in file order, each once. */
export function pickedNumbers(value: string, count: number): Set<number> {
  const picked = new Set<number>();
  for (const part of listFlag(value)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    const [from, to] = m ? [Number(m[1]), Number(m[2] ?? m[1])] : [NaN, NaN];
    if (!m || from < 1 || to < from || to > count)
      throw new UsageError(
        `--pick: ${JSON.stringify(part)} is not a feature number or range within 1..${count}`,
      );
    for (let i = from; i <= to; i++) picked.add(i);
  }
  if (picked.size === 0) throw new UsageError('--pick names no feature');
  return picked;
}

/** The creates the picked features become: every one an area (checked before). */
function creates(
  preview: ImportPreview,
  picked: readonly PreviewFeature[],
  target: Target,
  merge: boolean,
  fields: Json,
): Queued[] {
  const usable = picked.map((f) => ({ ...f, area: f.area! }));
  const base = path.basename(preview.file).replace(/\.[^.]*$/, '');
  const { name: mergedName, ...rest } = fields;
  const nameOfMerge = typeof mergedName === 'string' ? mergedName : base;
  if (target === 'aois') {
    if (merge)
      return [
        {
          kind: 'aoi',
          label: `the merged AOI`,
          input: { ...rest, name: nameOfMerge, geometry: mergeAreas(usable.map((f) => f.area)) },
        },
      ];
    return usable.map((f) => ({
      kind: 'aoi',
      label: `feature ${f.index} (${f.name})`,
      input: { ...rest, name: f.name, geometry: f.area },
    }));
  }
  const items = merge
    ? [{ ...rest, name: nameOfMerge, geometry: areaCollection(usable.map((f) => f.area)) }]
    : usable.map((f) => ({ ...rest, name: f.name, geometry: areaCollection([f.area]) }));
  return [{ kind: 'order', label: 'the order', input: { order_items: items } }];
}

/** Field problems of one create, named by the feature (or item) they come from. */
function labelled(q: Queued, details: ReadonlyArray<{ path: string; message: string }>) {
  const itemPath = /^order_items\.(\d+)(.*)$/;
  return details.map((d) => {
    const m = itemPath.exec(d.path);
    return {
      path: m ? `item ${Number(m[1]) + 1}${m[2]}` : `${q.label}.${d.path}`,
      message: d.message,
    };
  });
}

function check(q: Queued): void {
  const schema = q.kind === 'aoi' ? CreateAoiRequest : OpenCreateOrderRequest;
  const parsed = schema.safeParse(q.input);
  if (!parsed.success)
    throw new OutboxInputError(
      `Invalid ${q.kind}`,
      labelled(
        q,
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      ),
    );
}

function writePreview(
  ctx: CommandContext,
  preview: ImportPreview,
  queued: readonly OutboxEntry[] | null,
): void {
  if (ctx.format() === 'json') {
    writeJson(ctx.io.stdout, {
      file: preview.file,
      format: preview.format,
      source_crs: preview.sourceCrs,
      features: preview.features.map((f) => ({
        index: f.index,
        name: f.name,
        properties: f.properties,
        area: f.area,
        repairs: f.repairs,
        problem: f.problem,
      })),
      queued,
    });
    return;
  }
  writeTable(
    ctx.io.stdout,
    ['#', 'NAME', 'GEOMETRY', 'REPAIRED', 'PROBLEM'],
    preview.features.map((f) => [
      f.index,
      f.name,
      f.area?.type ?? f.geometry?.type ?? '',
      f.repairs.join('; '),
      f.problem ?? '',
    ]),
  );
  const crs = preview.sourceCrs ? ` (from ${preview.sourceCrs})` : '';
  ctx.io.stdout.write(
    `\n${preview.features.length} features, ${preview.format}${crs}; ${
      queued === null
        ? 'dry run: nothing queued'
        : `queued ${queued.map((e) => `${e.kind} ${e.id}`).join(', ')}`
    }\n`,
  );
}

export const importCommand: CommandSpec = {
  words: ['import'],
  operands: ['file'],
  usage:
    'eo import <file> [--as aois|order-items] [--pick 1,3-5] [--name-field F] [--merge] [--dry-run] (--json FIELDS | --file FIELDS) [--format json|table]',
  options: ['as', 'pick', 'name-field', 'merge', 'dry-run', 'json', 'file', 'format'],
  async run(ctx) {
    const target = ctx.values.as ?? 'aois';
    if (!(TARGETS as readonly string[]).includes(target))
      throw new UsageError(`--as must be aois or order-items, got ${JSON.stringify(target)}`);
    ctx.format();
    const dryRun = ctx.values['dry-run'] === true;
    const fields = await jsonInput(ctx.io, ctx.values);
    if (fields !== undefined && !isObj(fields))
      throw new UsageError('FIELDS must be a JSON object');
    if (fields === undefined && !dryRun)
      throw new UsageError(
        target === 'aois'
          ? 'give the other fields of each AOI with --json or --file (project_id, satellite_id, provider, item_ids, description)'
          : 'give the other fields of each order item with --json or --file (project_id, and what its type needs)',
      );
    const file = resolvePath(ctx.io, ctx.operands[0]!);
    if (!fs.existsSync(file))
      throw new CliFailure(`cannot read ${file}: no such file; nothing queued`);
    let preview: ImportPreview;
    try {
      // In a thread of its own with memory and time limits (IMPORT_WORKER_LIMITS), a CSV
      // streamed: a hostile or huge file is refused with a reason, never a crash or a hang.
      preview = await importFileInWorker({ path: file }, { nameField: ctx.values['name-field'] });
    } catch (e) {
      if (e instanceof FormatError) throw new CliFailure(`${e.message}; nothing queued`);
      throw e;
    }
    const numbers =
      ctx.values.pick === undefined
        ? null
        : pickedNumbers(ctx.values.pick, preview.features.length);
    const picked = preview.features.filter((f) => !numbers || numbers.has(f.index));
    const refused = picked.filter((f) => f.problem !== null);
    if (refused.length > 0) {
      writePreview(ctx, preview, null);
      const of = numbers ? `${picked.length} picked` : `${preview.features.length}`;
      throw new CliFailure(
        `${refused.length} of ${of} features cannot be areas; nothing queued (--pick takes some)\n${refused
          .map((f) => `  ${preview.file}: feature ${f.index} (${f.name}): ${f.problem}`)
          .join('\n')}`,
      );
    }
    const queue = creates(
      preview,
      picked,
      target as Target,
      ctx.values.merge === true,
      fields ?? {},
    );
    if (dryRun) {
      if (fields !== undefined) queue.forEach(check);
      writePreview(ctx, preview, null);
      return EXIT.ok;
    }
    queue.forEach(check);
    const { sqlite } = ctx.database({ create: true });
    const outbox = createOutbox({ db: sqlite });
    // One transaction: the outbox's own checks (references, …) refusing any create leaves none.
    const entries = sqlite.transaction(() =>
      queue.map((q) => {
        try {
          return outbox.enqueue(q.kind, q.input as never);
        } catch (e) {
          if (e instanceof OutboxInputError)
            throw new OutboxInputError(e.message.split(':')[0]!, labelled(q, e.details));
          throw e;
        }
      }),
    )();
    writePreview(ctx, preview, entries);
    return EXIT.ok;
  },
};
