/**
 * The service's reference lists (projects, bandsets, satellites with their bands, workflows,
 * delivery stores),
 * read at every mirror sync into `mirror_reference`, so create forms offer known ids offline.
 * Our spec has no read for them: they are our service's extension reads and the provider's own
 * (`client.extensions.list*`, the same paths and shapes). A service without a read answers 404:
 * that list is left as it was and nothing is reported as failed (forms keep the ids the mirrored
 * records show, as before). Any other failure is reported in the sync's report, never thrown:
 * the lists are a convenience, the records are the sync.
 */
import type { EoClient } from '@eo/api-client';
import type Database from 'better-sqlite3';
import { describeSyncError } from './errors';

export const REFERENCE_KINDS = ['project', 'bandset', 'satellite', 'workflow', 'store'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

export interface ReferenceReport {
  /** Lists read and stored (their entry counts). */
  readonly read: Partial<Record<ReferenceKind, number>>;
  /** Lists the service does not offer (404): left as they were. */
  readonly absent: ReferenceKind[];
  readonly failed: Array<{ kind: ReferenceKind; message: string }>;
}

type Entry = { id: string } & Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** The name a person reads: a project's title (its `name` is a slug on the real service). */
const displayName = (kind: ReferenceKind, e: Entry): string | null =>
  (kind === 'project' ? text(e['title']) : null) ?? text(e['name']);

export async function syncReference(
  sqlite: Database.Database,
  client: EoClient,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<ReferenceReport> {
  const call = { signal: options.signal };
  const x = client.extensions;
  const readers: Record<ReferenceKind, () => Promise<Entry[] | null>> = {
    project: () => x.listProjects(call) as Promise<Entry[] | null>,
    bandset: () => x.listBandsets(call) as Promise<Entry[] | null>,
    satellite: () => x.listSatellites(call) as Promise<Entry[] | null>,
    workflow: () => x.listWorkflows({}, call) as Promise<Entry[] | null>,
    // Where deliveries can land: the delivery form offers them (`cloud_info.config`).
    store: () => x.listStores(call) as Promise<Entry[] | null>,
  };
  const remove = sqlite.prepare('DELETE FROM mirror_reference WHERE kind = ?');
  const insert = sqlite.prepare(
    'INSERT OR REPLACE INTO mirror_reference (kind, id, name, json) VALUES (?, ?, ?, ?)',
  );
  const replace = sqlite.transaction((kind: ReferenceKind, list: Entry[]) => {
    remove.run(kind);
    for (const e of list) insert.run(kind, e.id, displayName(kind, e), JSON.stringify(e));
  });

  const report: ReferenceReport = { read: {}, absent: [], failed: [] };
  for (const kind of REFERENCE_KINDS) {
    options.signal?.throwIfAborted();
    try {
      const list = await readers[kind]();
      if (list === null) {
        report.absent.push(kind);
        continue;
      }
      replace(kind, list);
      report.read[kind] = list.length;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      report.failed.push({ kind, message: describeSyncError(e).message });
    }
  }
  return report;
}

/** Entries mirrored per list (`eo status`): 0 for a list never read or not offered. */
export function referenceCounts(sqlite: Database.Database): Record<ReferenceKind, number> {
  const rows = sqlite
    .prepare<[], { kind: string; n: number }>(
      'SELECT kind, COUNT(*) AS n FROM mirror_reference GROUP BY kind',
    )
    .all();
  const counts = { project: 0, bandset: 0, satellite: 0, workflow: 0, store: 0 };
  for (const r of rows) if (r.kind in counts) counts[r.kind as ReferenceKind] = r.n;
  return counts;
}
