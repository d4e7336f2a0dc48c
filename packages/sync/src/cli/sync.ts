/**
 * `eo sync`: brings the mirror level with the service (all resources, or those listed), with
 * progress on stderr. An interrupted or failed sync keeps what it committed; the next one
 * resumes from the checkpoint.
 */
import { CatalogSearchRequest, LIMITS, type CatalogSearchRequestInput } from '@eo/domain';
import type { ResourceName } from '../mirror/writers';
import { describeSyncError } from '../pull/errors';
import { createSyncEngine, RECENT_COMPLETE_MS, RESOURCES } from '../pull/engine';
import { makeRecordPacking } from '../mirror/packing';
import { makeMirrorOrigin } from '../mirror/origin';
import { intFlag, listFlag, UsageError } from './args';
import { readArchivePlan, runArchive, writeArchiveReport } from './archive';
import { parseImageryPlan, runImagery, writeImageryReport } from './imagery';
import { jsonText } from './json-input';
import type { CommandContext, CommandSpec } from './context';
import { EXIT, readTextFile } from './io';
import { writeJson } from './output';
import { progressMode, syncProgress } from './progress';
import { writeReferenceReport } from './reference';
import { resourceViews, writeResourceTable, writeSyncWarnings } from './status';

/** `order-items` and `orderItems` both name the order items. */
function resourceName(word: string): ResourceName | undefined {
  const camel = word.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return RESOURCES.find((r) => r === camel);
}

export function parseResources(value: string | undefined): ResourceName[] {
  if (value === undefined) return [...RESOURCES];
  const words = listFlag(value);
  const unknown = words.filter((w) => resourceName(w) === undefined);
  if (words.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--resources: ${unknown.length ? `unknown ${unknown.join(', ')}` : 'empty'} (known: ${RESOURCES.join(', ')})`,
    );
  }
  // Resources always sync in RESOURCES order (assets page the AOIs just mirrored).
  const chosen = new Set(words.map(resourceName));
  return RESOURCES.filter((r) => chosen.has(r));
}

/**
 * `--read-ahead auto|off|N` (default auto: the window follows the link); `--prefetch`, the old
 * switch, asks for the default. Undefined = the engine's default.
 */
export function parseReadAhead(
  value: string | undefined,
  prefetch: boolean | undefined,
): boolean | number | undefined {
  if (value !== undefined && prefetch !== undefined)
    throw new UsageError('--prefetch and --read-ahead: give one of them');
  if (value === undefined || value.trim() === 'auto') return prefetch;
  if (value.trim() === 'off') return false;
  return intFlag(value, 'read-ahead', 0, 16);
}

/** The saved searches of --catalog-file: one search body or an array of them, each checked. */
async function readCatalogPlan(
  ctx: CommandContext,
  file: string,
): Promise<CatalogSearchRequestInput[]> {
  const value = jsonText(await readTextFile(ctx.io, file), '--catalog-file');
  const searches = Array.isArray(value) ? (value as unknown[]) : [value];
  const problems = searches.flatMap((s, i) => {
    const r = CatalogSearchRequest.safeParse(s);
    return r.success
      ? []
      : r.error.issues.map((issue) => ({
          path: [`catalog[${i}]`, ...issue.path].join('.'),
          message: issue.message,
        }));
  });
  if (problems.length > 0) throw new UsageError('invalid search in --catalog-file', problems);
  return searches as CatalogSearchRequestInput[];
}

export const syncCommand: CommandSpec = {
  words: ['sync'],
  operands: [],
  usage:
    'eo sync [--resources LIST] [--refresh] [--full] [--catalog-file FILE] [--archive-file FILE] [--page-size N] [--batch-records N] [--read-ahead auto|off|N] [--imagery off|thumbnails|overviews] [--imagery-budget MB] [--progress auto|lines|off] [--format json|table]',
  options: [
    'format',
    'progress',
    'resources',
    'catalog-file',
    'archive-file',
    'page-size',
    'batch-records',
    'prefetch',
    'read-ahead',
    'full',
    'refresh',
    'imagery',
    'imagery-budget',
  ],
  async run(ctx) {
    const { values, io } = ctx;
    // Everything the command line says is checked before the database or the network is touched.
    const resources = parseResources(values.resources);
    const catalog = values['catalog-file']
      ? await readCatalogPlan(ctx, values['catalog-file'])
      : 'all';
    const archive = values['archive-file']
      ? await readArchivePlan(ctx, values['archive-file'])
      : undefined;
    const pageSize = values['page-size']
      ? intFlag(values['page-size'], 'page-size', 1, LIMITS.maxLimit)
      : undefined;
    const prefetch = parseReadAhead(values['read-ahead'], values.prefetch);
    const batchRecords = values['batch-records']
      ? intFlag(values['batch-records'], 'batch-records', 1)
      : undefined;
    const imagery = parseImageryPlan(values.imagery, values['imagery-budget']);
    const format = ctx.format();
    const progress = syncProgress(io.stderr, progressMode(values.progress, io.stderr));
    const client = ctx.client();
    const db = ctx.database({ create: true });

    const engine = createSyncEngine({
      db,
      client,
      catalog,
      drift: ctx.drift,
      ...(prefetch !== undefined ? { prefetch } : {}),
      ...(pageSize !== undefined ? { pageSize } : {}),
      ...(batchRecords !== undefined ? { batchRecords } : {}),
    });
    let reference;
    try {
      const report = await engine.sync({
        reference: true, // ids for `eo outbox add` offline, as the desktop's forms have them
        resources,
        full: values.full ?? false,
        signal: io.signal,
        onProgress: (p) => progress.update(p),
        // Resources completed minutes ago are left alone (a dropping link still gets the
        // unfinished one done); --refresh walks them all again (incrementally where the service
        // lets us), --full walks them all in full passes.
        skipCompletedWithinMs: values.full || values.refresh ? 0 : RECENT_COMPLETE_MS,
      });
      progress.end();
      // The records are this service's now: field packages and handovers are checked against it.
      makeMirrorOrigin(db.sqlite).synced(client.baseUrl);
      reference = report.reference;
      if (report.skipped.length > 0 && progressMode(values.progress, io.stderr) !== 'off')
        io.stderr.write(
          `${report.skipped.join(', ')}: complete within the last ${RECENT_COMPLETE_MS / 60_000} min, not walked again (--refresh walks them)\n`,
        );
    } catch (e) {
      progress.end();
      // Resources run in RESOURCES order (`resources` keeps it) and each completed one is
      // finished: the first requested one left unfinished is where it stopped.
      const statuses = engine.status();
      const stopped = resources
        .map((r) => statuses.find((s) => s.resource === r))
        .find((s) => s !== undefined && s.finishedAtUs === null);
      const why = describeSyncError(e);
      const what = why.status === undefined ? why.kind : `${why.kind} ${why.status}`;
      io.stderr.write(
        `eo sync: ${stopped ? `${stopped.resource} ` : ''}failed (${what}): ${why.message}\n`,
      );
      if (stopped && (stopped.part > 0 || stopped.checkpoint > 0))
        io.stderr.write(
          `eo sync: kept what was committed; the next sync resumes ${stopped.resource} at list ${stopped.part}, offset ${stopped.checkpoint}\n`,
        );
      return EXIT.failed;
    }
    // After the records: the saved archive searches' scenes (each search degrades on its own).
    let scenes;
    if (archive) {
      try {
        scenes = await runArchive(ctx, db, client, archive);
      } catch (e) {
        io.stderr.write(
          `eo sync: archive stopped (${describeSyncError(e).message}): the kept scene lists are as they were for the searches not run\n`,
        );
        return EXIT.failed;
      }
    }
    // Then the quicklooks (the URLs come with the records and scenes just read).
    let pictures;
    try {
      // ctx.client() checked that the URL is there and http(s).
      pictures = await runImagery(ctx, db, (values.url ?? io.env.EO_URL)!, imagery, client);
    } catch (e) {
      io.stderr.write(
        `eo sync: imagery stopped (${describeSyncError(e).message}): what was stored is kept; the next sync fetches the rest\n`,
      );
      return EXIT.failed;
    }
    // Last, the catalog records the sync stored as text are packed (as the desktop does when
    // idle); an interrupt stops at a batch boundary and the next run packs the rest.
    await makeRecordPacking(db.sqlite, () => false).pack({ signal: io.signal });
    const views = resourceViews(engine.status()).filter((v) => resources.includes(v.resource));
    if (format === 'json')
      writeJson(io.stdout, {
        resources: views,
        ...(reference ? { reference } : {}),
        ...(scenes ? { archive: scenes } : {}),
        ...(pictures ? { imagery: pictures } : {}),
      });
    else writeResourceTable(ctx, views);
    if (reference) writeReferenceReport(ctx, reference, format);
    writeSyncWarnings(ctx, views);
    if (scenes) writeArchiveReport(ctx, scenes, format);
    if (pictures) writeImageryReport(ctx, pictures, format);
    return EXIT.ok;
  },
};
