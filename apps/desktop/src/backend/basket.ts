/**
 * The basket (issue 17, item 5): catalog records put aside for an order or a delivery, kept in
 * the desktop store so they outlive searches and restarts. Inspecting a record never touches
 * it. A queued order or delivery takes out exactly the records it consumed: a delivery its
 * `catalog_ids`, an order the records whose scene (`details.id`, else the record id) one of its
 * archive items names in `item_ids`. Also answers which catalog records were already ordered
 * (the mirror's order items, the outbox's orders) for the list's "Ordered" badge.
 */
import { footprintRing } from '@eo/catalog-store';
import { CatalogSearchRequest, LIMITS } from '@eo/domain';
import { footprintIds, type Mirror } from '@eo/sync';
import {
  ContractError,
  MAX_BASKET,
  type Basket,
  type BasketEntry,
  type OrderedRecords,
  type SceneRecords,
} from '../shared/contract';
import { orderedSceneIds } from '../shared/scene-ids';
import type { BackendEvents } from './events';
import type { DesktopStore, StoredArchiveScene, StoredBasketEntry } from './local-store';

/** Outbox states of an order that was, or may yet be, placed. */
const LIVE_STATES = new Set(['queued', 'sending', 'sent', 'blocked', 'unconfirmed']);

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function makeBasket(options: {
  readonly store: Pick<DesktopStore, 'basket' | 'saveBasket'>;
  readonly mirror: Mirror;
  readonly events: BackendEvents;
  readonly now?: () => Date;
}) {
  const { store, mirror, events } = options;
  const now = options.now ?? (() => new Date());

  const archiveView = (e: StoredBasketEntry, a: StoredArchiveScene): BasketEntry => ({
    id: e.id,
    sceneId: e.id,
    collection: a.collection,
    datetime: a.datetime,
    platform: a.platform,
    inMirror: true,
    addedAt: e.addedAt,
    archive: { footprint: a.footprint },
  });

  const view = ({ id, addedAt, archive }: StoredBasketEntry): BasketEntry => {
    if (archive) return archiveView({ id, addedAt }, archive);
    const record = mirror.catalog.get(id) as Record<string, unknown> | null;
    const details = obj(record?.['details']);
    return {
      id,
      sceneId: record ? (str(details['id']) ?? id) : null,
      collection: str(details['collection']),
      datetime: str(obj(details['properties'])['datetime']),
      platform: str(obj(details['properties'])['platform']),
      inMirror: record !== null,
      addedAt,
    };
  };
  const read = (): Basket => ({ entries: store.basket().map(view) });

  /** Adds entries not in yet (by id; one already in stays where it is), up to MAX_BASKET. */
  const put = (wanted: ReadonlyArray<Omit<StoredBasketEntry, 'addedAt'>>): Basket => {
    const entries = store.basket();
    const have = new Set(entries.map((e) => e.id));
    const added = new Map<string, Omit<StoredBasketEntry, 'addedAt'>>();
    for (const e of wanted) if (!have.has(e.id) && !added.has(e.id)) added.set(e.id, e);
    if (entries.length + added.size > MAX_BASKET) {
      throw new ContractError(
        'invalid_argument',
        `The basket holds at most ${MAX_BASKET} records: it has ${entries.length}, and ${added.size} more would not fit.`,
      );
    }
    if (added.size > 0) {
      const addedAt = now().toISOString();
      store.saveBasket([...entries, ...[...added.values()].map((e) => ({ ...e, addedAt }))]);
    }
    return read();
  };

  /** Takes out `ids`; returns the ones that were in. */
  const takeOut = (ids: ReadonlySet<string>): string[] => {
    const before = store.basket();
    const kept = before.filter((e) => !ids.has(e.id));
    if (kept.length !== before.length) store.saveBasket(kept);
    return before.filter((e) => ids.has(e.id)).map((e) => e.id);
  };

  return {
    list: read,

    add(ids: readonly string[]): Basket {
      return put(ids.map((id) => ({ id })));
    },

    /** Scenes of a saved archive search, each kept with what an order needs of it. */
    addArchive(searchId: string, sceneIds: readonly string[]): Basket {
      const rows = new Map(mirror.archive.scenes(searchId).map((s) => [s.id, s]));
      const missing = sceneIds.filter((id) => !rows.has(id));
      if (missing.length > 0) {
        throw new ContractError(
          'invalid_argument',
          `The archive search does not keep ${missing.length === 1 ? 'the scene' : 'the scenes'} ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? '…' : ''}: sync again, then add what it lists.`,
        );
      }
      return put(
        sceneIds.map((id) => {
          const s = rows.get(id)!;
          const platform = str(obj(s.feature['properties'])['platform']) ?? s.satelliteId;
          const archive: StoredArchiveScene = {
            platform,
            collection: s.collectionId,
            datetime: s.datetimeUs === null ? null : new Date(s.datetimeUs / 1000).toISOString(),
            footprint: footprintRing(s.feature.geometry, s.bbox),
          };
          return { id, archive };
        }),
      );
    },

    remove(ids: readonly string[]): Basket {
      takeOut(new Set(ids));
      return read();
    },

    clear(): Basket {
      store.saveBasket([]);
      return read();
    },

    /**
     * A create was queued: take out the records it consumed and say so (`basket.changed`).
     * Returns what was taken out.
     */
    consume(create: { readonly kind: string; readonly input: unknown }): string[] {
      if (create.kind !== 'order' && create.kind !== 'delivery') return [];
      const input = obj(create.input);
      let taken: string[];
      if (create.kind === 'delivery') {
        const ids = list(input['deliveries']).flatMap((d) => list(obj(d)['catalog_ids']));
        taken = takeOut(new Set(ids.filter((id): id is string => typeof id === 'string')));
      } else {
        const scenes = new Set(orderedSceneIds(list(input['order_items'])));
        if (scenes.size === 0) return [];
        const consumed = store
          .basket()
          .map(view)
          .filter((e) => scenes.has(e.sceneId ?? e.id) || scenes.has(e.id))
          .map((e) => e.id);
        taken = takeOut(new Set(consumed));
      }
      if (taken.length > 0) {
        events.emit('basket.changed', { ...read(), consumed: taken, by: create.kind });
      }
      return taken;
    },

    /** Catalog records whose scene is in a mirrored order item or an order in the outbox. */
    ordered(): OrderedRecords {
      const scenes = new Set(orderedSceneIds(mirror.records.orderItems()));
      for (const entry of mirror.outbox.list({})) {
        if (entry.kind !== 'order' || !LIVE_STATES.has(entry.state)) continue;
        for (const id of orderedSceneIds(list(entry.input['order_items']))) scenes.add(id);
      }
      const all = [...scenes];
      const ids = new Set<string>();
      // The catalog's records of those scenes: the archive's and the order's own.
      for (let i = 0; i < all.length; i += LIMITS.maxIdsPerFilter) {
        const item_ids = all.slice(i, i + LIMITS.maxIdsPerFilter);
        const matches = mirror.catalog.footprints(CatalogSearchRequest.parse({ item_ids }));
        for (const id of footprintIds(matches)) ids.add(id);
      }
      return { ids: [...ids] };
    },

    /**
     * The mirrored record of each scene id: the one whose `details.id` it is (the first found),
     * else a record with that id itself (a client that ordered by record id), else null.
     */
    scenes(sceneIds: readonly string[]): SceneRecords {
      const wanted = [...new Set(sceneIds)];
      const bySceneId = new Map<string, string>();
      const matches = mirror.catalog.footprints(CatalogSearchRequest.parse({ item_ids: wanted }));
      for (const id of footprintIds(matches)) {
        const sceneId = str(obj(obj(mirror.catalog.get(id))['details'])['id']);
        if (sceneId && !bySceneId.has(sceneId)) bySceneId.set(sceneId, id);
      }
      const recordOf = (sceneId: string): string | null =>
        bySceneId.get(sceneId) ?? (mirror.catalog.get(sceneId) ? sceneId : null);
      return { records: sceneIds.map((sceneId) => ({ sceneId, recordId: recordOf(sceneId) })) };
    },
  };
}

export type BackendBasket = ReturnType<typeof makeBasket>;
