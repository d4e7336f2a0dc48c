/**
 * `eo search`: catalog search answered from the mirror, offline, with the body of
 * `POST /v0/catalogs/search` (and the same answer the service gives for it).
 */
import { makeOfflineCatalogSearch, OfflineSearchError } from '../search/catalog';
import { UsageError } from './args';
import type { CommandSpec } from './context';
import { isExportFormat } from '@eo/formats';
import { EXPORT_FORMAT_LIST, exportFormatOf, writeFeatures } from './export';
import { catalogFeature } from './export/records';
import { EXIT } from './io';
import { writeJson, writeTable } from './output';
import { searchBody } from './search-body';

export const searchCommand: CommandSpec = {
  words: ['search'],
  operands: [],
  usage: `eo search [--json BODY | --file FILE] [--bbox W,S,E,N] [--datetime A/B] [--collections X,Y] [--cloud-max N] [--limit N] [--offset N] [--sort FIELD[:asc|desc]]... [--format json|table|${EXPORT_FORMAT_LIST} [--no-wkt] [--out FILE]]`,
  options: [
    'format',
    'json',
    'file',
    'bbox',
    'datetime',
    'collections',
    'cloud-max',
    'limit',
    'offset',
    'sort',
    'wkt',
    'no-wkt',
    'out',
  ],
  async run(ctx) {
    const body = await searchBody(ctx.io, ctx.values);
    const given = ctx.values.format;
    if (given !== undefined && given !== 'json' && given !== 'table' && !isExportFormat(given))
      throw new UsageError(
        `--format must be json, table, ${EXPORT_FORMAT_LIST.replace(/\|/g, ', ')}, got ${JSON.stringify(given)}`,
      );
    const features = isExportFormat(given);
    const format = features ? exportFormatOf(ctx) : ctx.format();
    if (!features && (ctx.values.wkt || ctx.values['no-wkt'] || ctx.values.out !== undefined))
      throw new UsageError(`--wkt, --no-wkt and --out go with --format ${EXPORT_FORMAT_LIST}`);
    const { sqlite } = ctx.database({ create: false });
    const search = makeOfflineCatalogSearch(sqlite);
    let result;
    try {
      result = search(body);
    } catch (e) {
      if (e instanceof OfflineSearchError)
        throw new UsageError(
          'invalid search',
          e.issues.map((i) => ({ ...i })),
        );
      throw e;
    }
    const notIndexed = search.notIndexed();
    if (notIndexed > 0)
      ctx.io.stderr.write(
        `eo search: ${notIndexed} mirrored records could not be indexed (a datetime, number or footprint that could not be read): date, cloud and area filters never match them; eo status --drift\n`,
      );
    if (format !== 'json' && format !== 'table') {
      writeFeatures(ctx, result.catalogs.map(catalogFeature), format, 'search');
      return EXIT.ok;
    }
    if (format === 'json') {
      writeJson(ctx.io.stdout, result);
      return EXIT.ok;
    }
    const { catalogs, pagination } = result;
    writeTable(
      ctx.io.stdout,
      ['ID', 'COLLECTION', 'DATETIME', 'CLOUD %', 'GSD', 'PLATFORM'],
      catalogs.map((c) => {
        // A real service may send a record without details: its row shows the id alone.
        const d = (c.details ?? {}) as { collection?: unknown; properties?: unknown };
        const p = (d.properties ?? {}) as Record<string, unknown>;
        return [c.id, d.collection, p.datetime, p['eo:cloud_cover'], p.gsd, p.platform];
      }),
    );
    const first = catalogs.length ? pagination.offset + 1 : pagination.offset;
    ctx.io.stdout.write(
      `\n${first}-${pagination.offset + catalogs.length} of ${pagination.total ?? '?'}\n`,
    );
    return EXIT.ok;
  },
};
