/**
 * Drift: what a sync read that differs from the spec, counted per resource and pass, with a
 * sample of issues (`sync_drift`). Two sources: the api-client's schema drift reports (the
 * client is built with `onSchemaDrift: inbox.onSchemaDrift`, the engine given the inbox), and
 * the records the writers could not index or store.
 */
import type { SchemaDriftEvent } from '@eo/api-client';
import { readId } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { RecordIssue, ResourceName } from '../mirror/writers';

/** Issues kept per resource and pass (the counts cover every record). */
export const DRIFT_SAMPLE_SIZE = 20;
/** Reports held between two pages; beyond that the oldest go (a client used by others meanwhile). */
const INBOX_SIZE = 1000;

/** Collects the client's schema drift reports for the engine to take after each page. */
export interface DriftInbox {
  readonly onSchemaDrift: (event: SchemaDriftEvent) => void;
  take(): SchemaDriftEvent[];
}

export function createDriftInbox(): DriftInbox {
  let events: SchemaDriftEvent[] = [];
  return {
    onSchemaDrift(event) {
      events.push(event);
      if (events.length > INBOX_SIZE) events = events.slice(-INBOX_SIZE);
    },
    take() {
      const out = events;
      events = [];
      return out;
    },
  };
}

/**
 * `list`: not a record's issue but a list's: why a pass could not know the list whole (records
 * missing from its pages, a total that fell, a repeated page: completeness.ts). Such a note
 * makes the pass incomplete and is its `incompleteReason`; it outlives an interrupted run.
 */
export type DriftSource = 'schema' | 'not-indexed' | 'skipped' | 'list';

export interface DriftIssue {
  readonly source: DriftSource;
  /** Position of the record in the batch being written; null for the page's envelope. */
  readonly index: number | null;
  readonly recordId: string | null;
  /** Path within the record (or the response, for the envelope). */
  readonly path: string;
  readonly message: string;
}

export interface DriftSample extends Omit<DriftIssue, 'index'> {
  readonly resource: ResourceName;
}

/** The field holding a record's id in each resource's lists. */
export const idFieldOf = (resource: ResourceName): string => LISTS[resource].id;

/** The list endpoint and list key of each resource's pages. */
const LISTS: Record<ResourceName, { endpoint: string; key: string; id: string }> = {
  orders: { endpoint: 'listOrders', key: 'orders', id: 'id' },
  orderItems: { endpoint: 'listOrderItems', key: 'order_items', id: 'id' },
  aois: { endpoint: 'listAois', key: 'aois', id: 'aoi_id' },
  assets: { endpoint: 'listAoiAssets', key: 'assets', id: 'id' },
  indices: { endpoint: 'listIndices', key: 'indices', id: 'id' },
  catalogs: { endpoint: 'searchCatalogs', key: 'catalogs', id: 'id' },
};

/**
 * The schema issues of one page, located: `catalogs.3.created_at` is record 3 of the page
 * (`base + 3` in the batch), path `created_at`. The client decodes a page just before handing it
 * over, so the reports taken after a page are that page's (read-ahead only fetches the next
 * one); reports of other endpoints are not this resource's and are dropped.
 */
export function pageDrift(
  resource: ResourceName,
  events: readonly SchemaDriftEvent[],
  items: readonly unknown[],
  base: number,
): DriftIssue[] {
  const list = LISTS[resource];
  const out: DriftIssue[] = [];
  for (const e of events) {
    if (e.endpoint !== list.endpoint) continue;
    for (const issue of e.issues) {
      const parts = issue.path.split('.');
      const at = parts[0] === list.key && parts.length > 1 ? Number(parts[1]) : NaN;
      if (Number.isInteger(at) && at >= 0 && at < items.length) {
        const item = items[at] as Record<string, unknown> | null;
        out.push({
          source: 'schema',
          index: base + at,
          recordId: item && typeof item === 'object' ? readId(item[list.id]) : null,
          path: parts.slice(2).join('.'),
          message: issue.message,
        });
      } else {
        out.push({ source: 'schema', index: null, recordId: null, ...issue });
      }
    }
  }
  return out;
}

/** The writers' issues as drift. */
export function writeDrift(issues: readonly RecordIssue[]): DriftIssue[] {
  return issues.map((i) => ({
    source: i.kind,
    index: i.index,
    recordId: i.recordId,
    path: i.field,
    message: i.message,
  }));
}

/** Records with any issue, and records not stored, among a batch's issues. */
export function driftCounts(issues: readonly DriftIssue[]): { drift: number; skipped: number } {
  const drifted = new Set<number>();
  const skipped = new Set<number>();
  for (const i of issues) {
    if (i.index === null) continue;
    drifted.add(i.index);
    if (i.source === 'skipped') skipped.add(i.index);
  }
  return { drift: drifted.size, skipped: skipped.size };
}

export function makeDriftStore(sqlite: Database.Database) {
  const clear = sqlite.prepare('DELETE FROM sync_drift WHERE resource = ?');
  const count = sqlite
    .prepare(
      "SELECT count(*) FROM sync_drift WHERE resource = ? AND pass_id = ? AND source <> 'list'",
    )
    .pluck();
  const put = sqlite.prepare(
    `INSERT INTO sync_drift (resource, pass_id, source, record_id, path, message)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const list = sqlite.prepare(
    `SELECT resource, source, record_id AS recordId, path, message FROM sync_drift
     ORDER BY resource, seq`,
  );
  const notes = sqlite
    .prepare(
      `SELECT message FROM sync_drift WHERE resource = ? AND pass_id = ? AND source = 'list'
       ORDER BY seq`,
    )
    .pluck();
  const dropNotes = sqlite.prepare(
    `DELETE FROM sync_drift WHERE resource = ? AND pass_id = ? AND source = 'list'`,
  );
  return {
    /** A new pass: the last one's sample goes. */
    clear: (resource: ResourceName) => clear.run(resource),
    /** Keeps the first issues of a pass, up to DRIFT_SAMPLE_SIZE per resource. */
    sample(resource: ResourceName, passId: string, issues: readonly DriftIssue[]) {
      if (issues.length === 0) return;
      let room = DRIFT_SAMPLE_SIZE - (count.get(resource, passId) as number);
      for (const i of issues) {
        if (room-- <= 0) return;
        put.run(resource, passId, i.source, i.recordId, i.path, i.message);
      }
    },
    samples: (): DriftSample[] => list.all() as DriftSample[],
    /** Why a list of the pass is not known whole (kept whatever the sample's size). */
    note(resource: ResourceName, passId: string, message: string) {
      put.run(resource, passId, 'list', null, '', message);
    },
    /** The pass's `list` notes: the reasons it is incomplete. */
    notes: (resource: ResourceName, passId: string) => notes.all(resource, passId) as string[],
    dropNotes: (resource: ResourceName, passId: string) => dropNotes.run(resource, passId),
  };
}
