/**
 * The basket (issue 17, item 5): the catalog records put aside for an order or a delivery,
 * apart from the record open for inspection. Kept by the backend in the desktop store, so it
 * outlives searches and restarts; emptied of what a queued order or delivery consumed.
 */
import { z } from 'zod';
import { id, none } from '../../shared/contract/fields';
import { MAX_BASKET, MAX_SCENE_LOOKUP } from './limits';

export { MAX_BASKET, MAX_SCENE_LOOKUP };

const ids = z.array(id).min(1).max(MAX_BASKET);

/** One record in the basket, with what the panel shows of it from the mirror. */
export const BasketEntry = z.object({
  /** The catalog record's id (what the list and the map know). */
  id: z.string(),
  /** Its STAC item id (`details.id`): what an archive item orders; null when not mirrored. */
  sceneId: z.string().nullable(),
  collection: z.string().nullable(),
  datetime: z.string().nullable(),
  /** The satellite that took it (`properties.platform`); null when the record does not say. */
  platform: z.string().nullable(),
  /** False when the mirror no longer holds the record (cleared, or swept by a sync). */
  inMirror: z.boolean(),
  addedAt: z.string(),
  /**
   * An archive scene (added from a saved archive search, `basket.addArchive`) rather than a
   * catalog record: `id` and `sceneId` are its scene id, and its outline (flat [lon, lat, ...],
   * not closed) was kept when it was added, so it can be ordered even once its search moved on.
   */
  archive: z.object({ footprint: z.array(z.number().finite()).nullable() }).optional(),
});
export type BasketEntry = z.infer<typeof BasketEntry>;

/** The basket, oldest first. */
export const Basket = z.object({ entries: z.array(BasketEntry) });
export type Basket = z.infer<typeof Basket>;

/** Catalog records whose scene was already ordered: placed (mirror) or queued (outbox). */
export const OrderedRecords = z.object({ ids: z.array(z.string()) });
export type OrderedRecords = z.infer<typeof OrderedRecords>;

/** Which mirrored catalog record shows each archive scene (null: the mirror has none). */
export const SceneRecords = z.object({
  records: z.array(z.object({ sceneId: z.string(), recordId: z.string().nullable() })),
});
export type SceneRecords = z.infer<typeof SceneRecords>;

export const basketMethods = {
  'basket.list': { input: none, output: Basket },
  /** Adds records (already there: kept where they are); over MAX_BASKET: `invalid_argument`. */
  'basket.add': { input: z.object({ ids }).strict(), output: Basket },
  'basket.remove': { input: z.object({ ids }).strict(), output: Basket },
  'basket.clear': { input: none, output: Basket },
  /**
   * Adds scenes a saved archive search keeps (the mirror's rows, as `archive.scenes` lists
   * them): each an archive entry. A scene the search does not keep: `invalid_argument`.
   */
  'basket.addArchive': {
    input: z.object({ searchId: id, sceneIds: ids }).strict(),
    output: Basket,
  },
  'catalog.ordered': { input: none, output: OrderedRecords },
  /**
   * The mirrored catalog records of archive scene ids (`details.id`, what order items and
   * AOI scene assets name), in the order asked: what their thumbnails are drawn from.
   */
  'catalog.scenes': {
    input: z.object({ sceneIds: z.array(id).min(1).max(MAX_SCENE_LOOKUP) }).strict(),
    output: SceneRecords,
  },
} as const;

export const basketEvents = {
  /**
   * The basket changed outside a call of the renderer's: a queued order or delivery consumed
   * `consumed` (the records it took), and this is what is left.
   */
  'basket.changed': Basket.extend({
    consumed: z.array(z.string()),
    by: z.enum(['order', 'delivery']),
  }),
} as const;
