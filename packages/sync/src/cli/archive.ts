/**
 * `eo sync --archive-file FILE`: the saved archive searches (one, or a list) whose scenes are
 * kept for offline use (pull/archive.ts), run after the records and before the quicklooks, which
 * then include theirs. Without the flag the archive pass does not run and the kept scenes stay.
 * `eo status` shows their counts and pictures.
 */
import { SavedArchiveSearchList, type SavedArchiveSearch } from '@eo/domain';
import type { EoClient } from '@eo/api-client';
import type { MirrorDatabase } from '../db/open';
import { makeArchiveReads, type ArchiveCounts } from '../mirror/archive';
import { makeImageryStore } from '../mirror/imagery';
import { archiveIssuePath, syncArchive, type ArchiveReport } from '../pull/archive';
import { UsageError } from './args';
import type { CommandContext } from './context';
import { readTextFile } from './io';
import { jsonText } from './json-input';

const MB = 1_000_000;

/** The saved archive searches of the file: one or a list, each checked; problems name the path. */
export async function readArchivePlan(
  ctx: CommandContext,
  file: string,
): Promise<SavedArchiveSearch[]> {
  const source = `--archive-file ${file}`;
  const value = jsonText(await readTextFile(ctx.io, file), source);
  const r = SavedArchiveSearchList.safeParse(Array.isArray(value) ? value : [value]);
  if (r.success) return r.data;
  throw new UsageError(
    `invalid saved archive search in ${source}`,
    r.error.issues.map((issue) => ({ path: archiveIssuePath(issue.path), message: issue.message })),
  );
}

/** Runs the pass; the dropped scenes' pictures go with them at once. */
export async function runArchive(
  ctx: CommandContext,
  db: MirrorDatabase,
  client: EoClient,
  searches: readonly SavedArchiveSearch[],
): Promise<ArchiveReport> {
  const report = await syncArchive(db.sqlite, client, searches, { signal: ctx.io.signal });
  if (report.dropped > 0) makeImageryStore(db.sqlite, db.file).removeOrphans();
  return report;
}

/** What the pass did (stdout, table output only: JSON has the report) and its problems (stderr). */
export function writeArchiveReport(
  ctx: CommandContext,
  r: ArchiveReport,
  format: 'json' | 'table',
): void {
  if (format === 'table') {
    ctx.io.stdout.write(
      `\narchive: ${r.searches.length} saved searches, ${r.scenes} scenes kept, ${r.dropped} dropped\n`,
    );
  }
  for (const s of r.searches) {
    const name = `archive: ${JSON.stringify(s.name)} (${s.searchId})`;
    if (s.state === 'failed')
      ctx.io.stderr.write(
        `eo: ${name}: failed (${s.error?.status ?? s.error?.kind ?? ''}): ${s.error?.message ?? ''}; its previous scenes are kept\n`,
      );
    if (s.state === 'incomplete')
      ctx.io.stderr.write(
        `eo: ${name}: ended with ${s.received}${s.total === null ? '' : ` of ${s.total}`} scenes (incomplete): nothing was removed from its list\n`,
      );
    if (s.drift > 0 || s.skipped > 0)
      ctx.io.stderr.write(
        `eo: ${name}: ${s.drift} scenes with unreadable fields, ${s.skipped} without an id (not kept)\n`,
      );
  }
}

export function archiveCounts(db: MirrorDatabase): ArchiveCounts {
  return makeArchiveReads(db.sqlite).counts();
}

export function archiveLine(c: ArchiveCounts): string {
  return `archive: ${c.searches} saved searches, ${c.scenes} scenes, ${c.thumbnails} thumbnails, ${c.overviews} overviews, ${(c.bytes / MB).toFixed(1)} MB\n`;
}
