/**
 * Test support: the basket's methods in memory (the backend's, `src/backend/basket.ts`, is
 * tested against the real service in `src/backend/__tests__/basket.spec.ts`). Same rules: a
 * queued delivery takes its `catalog_ids`, an order the records whose scene its items name; an
 * archive scene added from a search's kept scenes is an archive entry.
 */
import type { CatalogRecord } from '@eo/domain';
import type {
  ArchiveSceneRow,
  BasketEntry,
  EventName,
  EventPayload,
  Method,
} from '../../shared/contract';
import { ContractError, MAX_BASKET } from '../../shared/contract';

export interface MemoryBasket {
  /** The records in the basket, oldest first. */
  ids: string[];
  /** Scene ids the memory bridge's orders hold (`catalog.ordered` answers their records). */
  orderedScenes: Set<string>;
  handle(method: Method, input: unknown): unknown;
  /** After `outbox.enqueue`: takes out what the create consumed. */
  consume(create: { kind: string; input: Record<string, unknown> }): void;
}

export function createMemoryBasket(
  records: readonly CatalogRecord[],
  emit: <E extends EventName>(e: E, p: EventPayload<E>) => void,
  archiveScenes: (searchId: string) => readonly ArchiveSceneRow[] = () => [],
): MemoryBasket {
  const byId = new Map(records.map((r) => [r.id, r]));
  /** Archive entries: the scene row each was added from. */
  const archived = new Map<string, ArchiveSceneRow>();
  const sceneOf = (id: string) => byId.get(id)?.details.id ?? id;
  const view = (id: string): BasketEntry => {
    const a = archived.get(id);
    if (a) {
      return {
        id,
        sceneId: id,
        collection: a.collectionId,
        datetime: a.datetime,
        platform: a.satelliteId,
        inMirror: true,
        addedAt: '2024-05-17T08:00:00.000Z',
        archive: { footprint: a.footprint },
      };
    }
    const r = byId.get(id);
    return {
      id,
      sceneId: r ? sceneOf(id) : null,
      collection: r?.details.collection ?? null,
      datetime: r?.details.properties.datetime ?? null,
      platform: (r?.details.properties['platform'] as string | undefined) ?? null,
      inMirror: r !== undefined,
      addedAt: '2024-05-17T08:00:00.000Z',
    };
  };
  const basket: MemoryBasket = {
    ids: [],
    orderedScenes: new Set(),
    handle(method, input) {
      const ids = (input as { ids?: string[] } | undefined)?.ids ?? [];
      switch (method) {
        case 'basket.add': {
          const fresh = [...new Set(ids)].filter((id) => !basket.ids.includes(id));
          if (basket.ids.length + fresh.length > MAX_BASKET)
            throw new ContractError('invalid_argument', 'The basket is full');
          basket.ids.push(...fresh);
          break;
        }
        case 'basket.addArchive': {
          const { searchId, sceneIds } = input as { searchId: string; sceneIds: string[] };
          const rows = new Map(archiveScenes(searchId).map((r) => [r.id, r]));
          const missing = sceneIds.filter((id) => !rows.has(id));
          if (missing.length > 0)
            throw new ContractError('invalid_argument', `The search does not keep ${missing[0]}`);
          for (const id of sceneIds) {
            if (basket.ids.includes(id)) continue;
            archived.set(id, rows.get(id)!);
            basket.ids.push(id);
          }
          break;
        }
        case 'basket.remove':
          basket.ids = basket.ids.filter((id) => !ids.includes(id));
          break;
        case 'basket.clear':
          basket.ids = [];
          break;
        case 'catalog.ordered':
          return {
            ids: records.filter((r) => basket.orderedScenes.has(r.details.id)).map((r) => r.id),
          };
        case 'catalog.scenes': {
          const { sceneIds } = input as { sceneIds: string[] };
          const recordOf = (s: string) =>
            (records.find((r) => r.details.id === s) ?? byId.get(s))?.id ?? null;
          return { records: sceneIds.map((sceneId) => ({ sceneId, recordId: recordOf(sceneId) })) };
        }
      }
      return { entries: basket.ids.map(view) };
    },
    consume({ kind, input }) {
      const list = (v: unknown) => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);
      let taken: string[] = [];
      if (kind === 'delivery') {
        const ids = new Set(list(input['deliveries']).flatMap((d) => list(d['catalog_ids'])));
        taken = basket.ids.filter((id) => ids.has(id as never));
      } else if (kind === 'order') {
        const scenes = new Set(list(input['order_items']).flatMap((i) => list(i['item_ids'])));
        for (const s of scenes) basket.orderedScenes.add(s as never);
        taken = basket.ids.filter((id) => scenes.has(sceneOf(id) as never));
      }
      if (taken.length === 0) return;
      basket.ids = basket.ids.filter((id) => !taken.includes(id));
      emit('basket.changed', {
        entries: basket.ids.map(view),
        consumed: taken,
        by: kind as 'order' | 'delivery',
      });
    },
  };
  return basket;
}
