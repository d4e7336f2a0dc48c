/**
 * What the outbox writes into the mirror when a create succeeds, so a field team sees what it
 * submitted at once instead of after the next pull: orders (and the items the response carries),
 * AOIs and indices go into their mirror tables; deliveries, jobs and visualizations, which the
 * service cannot list, into the created-records tables (`refreshCreated` follows their status).
 */
import type Database from 'better-sqlite3';
import type { MirrorWriter as OutboxMirrorWriter, OutboxKind } from '../outbox/index';
import { makeCreatedRecords } from './created';
import type { WireRecord } from './rows';
import { makeMirrorWriters, type ResourceName } from './writers';

const isRecord = (v: unknown): v is WireRecord =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function makeOutboxMirror(sqlite: Database.Database): OutboxMirrorWriter {
  const writers = makeMirrorWriters(sqlite);
  const created = makeCreatedRecords(sqlite);
  const passOf = sqlite.prepare('SELECT pass_id FROM sync_state WHERE resource = ?').pluck();
  /**
   * Stamped with the resource's current (or last) pass, so a pass in progress does not sweep a
   * record created after it started; with no pass yet, the first pass re-stamps or sweeps it.
   */
  const write = (resource: ResourceName, records: readonly WireRecord[]) => {
    if (records.length === 0) return;
    const passId = (passOf.get(resource) as string | null | undefined) ?? '';
    // A record the writer could not store is this create's mirror error (onMirrorError).
    const skipped = writers[resource].write(records, passId).filter((i) => i.kind === 'skipped');
    if (skipped.length > 0) throw new Error(skipped.map((i) => i.message).join('; '));
  };

  const record = sqlite.transaction((kind: OutboxKind, response: unknown) => {
    if (!isRecord(response)) return;
    switch (kind) {
      case 'order': {
        write('orders', [response]);
        const items = Array.isArray(response['order_items']) ? response['order_items'] : [];
        write('orderItems', items.filter(isRecord));
        return;
      }
      case 'aoi':
        return write('aois', [response]);
      case 'index':
        return write('indices', [response]);
      case 'delivery': {
        const list = Array.isArray(response['deliveries']) ? response['deliveries'] : [];
        for (const d of list) if (isRecord(d)) created.putDelivery(d);
        return;
      }
      case 'job':
        return created.putJob(response);
      case 'visualization':
        return created.putVisualization(response);
    }
  });

  return { recordCreated: (kind, response) => record(kind, response) };
}
