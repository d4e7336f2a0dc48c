/**
 * `eo sync --imagery off|thumbnails|overviews [--imagery-budget MB]`: the quicklooks of the
 * mirrored catalog records, fetched after the records (pull/imagery.ts), and the index maps of
 * mirrored visualizations (pull/index-maps.ts). Off unless asked for:
 * a thumbnail (~55 kB of PNG) costs some 400 times a catalog record's bytes on the wire (~140 B
 * with brotli), and a field team on a metered link decides when to pay for pictures.
 * `eo status` shows what is stored.
 */
import {
  DEFAULT_IMAGERY_BUDGET_BYTES,
  IMAGERY_CHOICES,
  makeImageryStore,
  type ImageryChoice,
  type ImageryCounts,
} from '../mirror/imagery';
import type { EoClient } from '@eo/api-client';
import type { MirrorDatabase } from '../db/open';
import { syncImagery, type ImageryReport } from '../pull/imagery';
import { intFlag, UsageError } from './args';
import type { CommandContext } from './context';
import { imageryProgress, progressMode } from './progress';

export interface ImageryPlan {
  readonly choice: ImageryChoice;
  readonly budgetBytes: number;
}

const MB = 1_000_000;

export function parseImageryPlan(choice: string | undefined, budget: string | undefined) {
  const c = (choice ?? 'off').trim();
  if (!IMAGERY_CHOICES.includes(c as ImageryChoice))
    throw new UsageError(
      `--imagery must be ${IMAGERY_CHOICES.join(', ')}, got ${JSON.stringify(choice)}`,
    );
  const budgetBytes =
    budget === undefined ? DEFAULT_IMAGERY_BUDGET_BYTES : intFlag(budget, 'imagery-budget', 1) * MB;
  return { choice: c as ImageryChoice, budgetBytes };
}

/** Fetches the quicklooks the plan asks for; null when it asks for none. */
export async function runImagery(
  ctx: CommandContext,
  db: MirrorDatabase,
  serviceUrl: string,
  plan: ImageryPlan,
  client: EoClient,
): Promise<ImageryReport | null> {
  if (plan.choice === 'off') return null;
  const progress = imageryProgress(ctx.io.stderr, progressMode(ctx.values.progress, ctx.io.stderr));
  try {
    return await syncImagery(db.sqlite, makeImageryStore(db.sqlite, db.file), {
      serviceUrl,
      client,
      choice: plan.choice,
      budgetBytes: plan.budgetBytes,
      signal: ctx.io.signal,
      onProgress: (p) => progress.update(p),
    });
  } finally {
    progress.end();
  }
}

/** What a run did (stdout, table output only: JSON has the report) and its problems (stderr). */
export function writeImageryReport(
  ctx: CommandContext,
  r: ImageryReport,
  format: 'json' | 'table',
): void {
  const maps = r.indexMaps;
  if (format === 'table') {
    ctx.io.stdout.write(
      `\nimagery: ${r.fetched} fetched (${(r.fetchedBytes / MB).toFixed(1)} MB), ${r.kept} kept, ${r.evicted} evicted\n`,
    );
    if (maps)
      ctx.io.stdout.write(
        `index maps: ${maps.fetched} fetched (${(maps.fetchedBytes / MB).toFixed(1)} MB), ${maps.kept} kept${maps.unavailable > 0 ? `, ${maps.unavailable} unavailable (the service has no index PNGs)` : ''}\n`,
      );
  }
  const problems = [
    r.bad > 0 ? `${r.bad} stored files were bad and fetched again` : '',
    r.expired > 0
      ? `${r.expired} URLs refused (403, expired): the next sync re-reads the catalog records in full`
      : '',
    r.overBudget > 0 ? `${r.overBudget} not fetched: the budget is full (--imagery-budget)` : '',
    r.refused > 0 ? `${r.refused} hrefs are not http(s) URLs: not fetched` : '',
    r.failed > 0 ? `${r.failed} failed (${r.lastError ?? ''}): the next sync tries again` : '',
    maps && maps.bad > 0 ? `${maps.bad} stored index maps were bad and fetched again` : '',
    maps && maps.overBudget > 0
      ? `${maps.overBudget} index maps not fetched: the budget is full (--imagery-budget)`
      : '',
    maps && maps.failed > 0
      ? `${maps.failed} index maps failed (${maps.lastError ?? ''}): the next sync tries again`
      : '',
  ].filter((s) => s !== '');
  for (const p of problems) ctx.io.stderr.write(`eo: imagery: ${p}\n`);
}

export function imageryCounts(db: MirrorDatabase): ImageryCounts {
  return makeImageryStore(db.sqlite, db.file).counts();
}

export function imageryLine(c: ImageryCounts): string {
  return `imagery: ${c.thumbnail} thumbnails, ${c.overview} overviews, ${c.indexMap} index maps, ${c.raster} offline rasters, ${(c.bytes / MB).toFixed(1)} MB\n`;
}
