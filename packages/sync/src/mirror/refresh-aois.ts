/**
 * Follows AOIs until they are final (issue 17, item 4): an AOI is created `started` and the
 * service produces its scene assets afterwards, so without this the mirror kept "Started 0 %"
 * until the next sync. Every mirrored AOI whose status is not final (`started`, `running`,
 * `updating`) is re-read with the spec's list read filtered by `aoi_id`; when it changed, it is
 * stored with its assets (a spec read too), whose `description` says why a scene failed.
 */
import { allItems, type EoClient } from '@eo/api-client';
import { isFinalStatus } from '@eo/domain';
import type Database from 'better-sqlite3';
import { idOf, type WireRecord } from './rows';
import { makeMirrorWriters } from './writers';

export interface RefreshAoisReport {
  readonly checked: number;
  readonly updated: number;
  /** AOIs the service no longer lists. */
  readonly unavailable: number;
}

/** Mirrored AOIs whose status is not final, oldest first. */
export function unfinishedAois(sqlite: Database.Database): WireRecord[] {
  const rows = sqlite
    .prepare('SELECT status, json FROM mirror_aois ORDER BY created_at_us, aoi_id')
    .all() as Array<{ status: string | null; json: string }>;
  return rows.filter((r) => !isFinalStatus(r.status)).map((r) => JSON.parse(r.json) as WireRecord);
}

export async function refreshAois(options: {
  readonly sqlite: Database.Database;
  readonly client: EoClient;
  readonly signal?: AbortSignal | undefined;
  /** JSON with sorted keys: a record read again along another path compares equal. */
  readonly canonical: (value: unknown) => string;
}): Promise<RefreshAoisReport> {
  const { sqlite, client, signal, canonical } = options;
  const writers = makeMirrorWriters(sqlite);
  const passOf = sqlite.prepare('SELECT pass_id FROM sync_state WHERE resource = ?').pluck();
  // Stamped with the resource's current pass, as the outbox's writes are (outbox-mirror.ts).
  const pass = (resource: 'aois' | 'assets') =>
    (passOf.get(resource) as string | null | undefined) ?? '';
  let checked = 0;
  let updated = 0;
  let unavailable = 0;
  for (const before of unfinishedAois(sqlite)) {
    const id = idOf(before, 'aoi_id');
    if (id === null) continue;
    checked++;
    const page = await client.listAois({ aoi_id: id, limit: 1 }, { signal });
    const after = (page.aois as WireRecord[]).find((a) => idOf(a, 'aoi_id') === id);
    if (!after) {
      unavailable++;
      continue;
    }
    if (canonical(after) === canonical(before)) continue;
    const assets: WireRecord[] = [];
    for await (const a of allItems(client.pages.aoiAssets(id, {}, { signal, pageSize: 1000 })))
      assets.push(a as WireRecord);
    sqlite.transaction(() => {
      writers.aois.write([after], pass('aois'));
      writers.assets.write(assets, pass('assets'));
    })();
    updated++;
  }
  return { checked, updated, unavailable };
}
