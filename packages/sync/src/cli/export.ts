/**
 * `eo export orders|aois`: the mirror's order items (one feature each, with its order's id and
 * status) or AOIs as GeoJSON or CSV, offline.
 */
import type Database from 'better-sqlite3';
import { UsageError } from './args';
import type { CommandContext, CommandSpec } from './context';
import { aoiFeature, orderItemFeature } from './export/records';
import type { ExportFeature } from './export/feature';
import { exportText, isExportFormat, writeExport, type ExportFormat } from './export/write';
import { EXIT } from './io';

/** `--format` of an export: geojson, csv or kml, no default (the caller says what it wants). */
export function exportFormatOf(ctx: CommandContext): ExportFormat {
  const f = ctx.values.format;
  if (!isExportFormat(f))
    throw new UsageError(
      f === undefined
        ? '--format geojson, csv or kml is required'
        : `--format must be geojson, csv or kml, got ${JSON.stringify(f)}`,
    );
  if (ctx.values.wkt && f !== 'csv') throw new UsageError('--wkt goes with --format csv');
  return f;
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
    usage: `eo export ${what} --format geojson|csv|kml [--wkt] [--out FILE]`,
    options: ['format', 'wkt', 'out'],
    run(ctx) {
      const format = exportFormatOf(ctx);
      const { sqlite } = ctx.database({ create: false });
      const text = exportText(read(sqlite), format, { wkt: ctx.values.wkt === true });
      writeExport(ctx.io, text, ctx.values.out);
      return Promise.resolve(EXIT.ok);
    },
  };
}

export const exportOrdersCommand = exportCommand('orders', orderItemFeatures);
export const exportAoisCommand = exportCommand('aois', aoiFeatures);
