/**
 * `eo export orders|aois`: the mirror's order items (one feature each, with its order's id and
 * status) or AOIs in any format of @eo/formats (GeoJSON, CSV, KML, KMZ, zipped Shapefile,
 * GeoPackage), offline.
 */
import {
  BINARY_EXPORT_FORMATS,
  EXPORT_FORMATS,
  exportFeatures,
  exportNotes,
  isExportFormat,
  type ExportFeature,
  type ExportFormat,
} from '@eo/formats';
import type Database from 'better-sqlite3';
import { UsageError } from './args';
import type { CommandContext, CommandSpec } from './context';
import { aoiFeature, orderItemFeature } from './export/records';
import { writeExport } from './export/write';
import { EXIT } from './io';

export const EXPORT_FORMAT_LIST = EXPORT_FORMATS.join('|');
const FORMAT_WORDS = `${EXPORT_FORMATS.slice(0, -1).join(', ')} or ${EXPORT_FORMATS.at(-1)}`;

/** `--format` of an export, no default (the caller says what it wants); bytes need --out. */
export function exportFormatOf(ctx: CommandContext): ExportFormat {
  const f = ctx.values.format;
  if (!isExportFormat(f))
    throw new UsageError(
      f === undefined
        ? `--format ${FORMAT_WORDS} is required`
        : `--format must be ${FORMAT_WORDS}, got ${JSON.stringify(f)}`,
    );
  if ((ctx.values.wkt || ctx.values['no-wkt']) && f !== 'csv')
    throw new UsageError('--wkt and --no-wkt go with --format csv');
  if (ctx.values.wkt && ctx.values['no-wkt'])
    throw new UsageError('--wkt and --no-wkt say opposite things: give one');
  const out = ctx.values.out;
  if (BINARY_EXPORT_FORMATS.includes(f) && (out === undefined || out === '-'))
    throw new UsageError(`--format ${f} writes a binary file: give --out FILE`);
  return f;
}

/** The export of features in the format asked, to --out or stdout. */
export function writeFeatures(
  ctx: CommandContext,
  features: readonly ExportFeature[],
  format: ExportFormat,
  layer: string,
): void {
  // CSV carries each geometry as WKT unless --no-wkt (a CSV without it has lost the places).
  const options = { wkt: ctx.values['no-wkt'] !== true, layer };
  const data = exportFeatures(features, format, options);
  writeExport(ctx.io, data, ctx.values.out);
  for (const note of exportNotes(features, format, options)) ctx.io.stderr.write(`note: ${note}\n`);
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

function orderItemFeatures(sqlite: Database.Database): ExportFeature[] {
  const rows = sqlite
    .prepare(
      `SELECT o.json AS order_json, i.json AS item_json FROM mirror_order_items i
       LEFT JOIN mirror_orders o ON o.id = i.order_id
       ORDER BY o.created_at_us, i.order_id, i.created_at_us, i.id`,
    )
    .all() as Array<{ order_json: string | null; item_json: string }>;
  return rows.map((r) =>
    orderItemFeature(r.order_json === null ? null : parse(r.order_json), parse(r.item_json)),
  );
}

function aoiFeatures(sqlite: Database.Database): ExportFeature[] {
  const rows = sqlite
    .prepare('SELECT json FROM mirror_aois ORDER BY created_at_us, aoi_id')
    .all() as Array<{ json: string }>;
  return rows.map((r) => aoiFeature(parse(r.json)));
}

function exportCommand(
  what: 'orders' | 'aois',
  read: (sqlite: Database.Database) => ExportFeature[],
): CommandSpec {
  return {
    words: ['export', what],
    operands: [],
    usage: `eo export ${what} --format ${EXPORT_FORMAT_LIST} [--no-wkt] [--out FILE]`,
    options: ['format', 'wkt', 'no-wkt', 'out'],
    run(ctx) {
      const format = exportFormatOf(ctx);
      const { sqlite } = ctx.database({ create: false });
      writeFeatures(ctx, read(sqlite), format, what);
      return Promise.resolve(EXIT.ok);
    },
  };
}

export const exportOrdersCommand = exportCommand('orders', orderItemFeatures);
export const exportAoisCommand = exportCommand('aois', aoiFeatures);
