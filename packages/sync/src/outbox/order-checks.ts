/**
 * What an order's service would refuse (or bill for nothing) that the device can know offline,
 * checked when the order is queued: archive scenes whose satellites share no bandset (the rule
 * of `@eo/domain`'s `archive-scenes.ts`, the one the reference service applies), scenes that do
 * not touch the item's area, and an order already queued or placed (same items, same scenes).
 * The schema already refuses an end date before the start date.
 *
 * Read from the mirror with this package's own reads (offline catalog search by `item_ids`,
 * the order-item filter). A scene the mirror does not hold is not guessed about: accepted, as
 * before; so is a scene whose record lists no bands.
 */
import {
  bandsetFits,
  firstSceneSharingNoBand,
  geometryIntersects,
  splitBySatellite,
  type Geometry,
  type OpenOrderItemInput,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeOfflineCatalogSearch } from '../search/catalog';
import { filterOrderItems } from '../search/local-filters';
import type { FieldProblem } from './errors';
import type { OutboxEntry } from './store';

interface Scene {
  readonly id: string;
  /** The platform (satellite) the record names, e.g. `kestrel-1`. */
  readonly satellite: string | undefined;
  /** Band names of its assets' `eo:bands`; empty when the record lists none. */
  readonly bands: string[];
  readonly footprint: Geometry | null;
}

type Item = OpenOrderItemInput;

/** An order as its items: project, name and scenes each (scene order does not matter). */
function orderKey(items: ReadonlyArray<{ project?: unknown; name?: unknown; scenes: string[] }>) {
  return JSON.stringify(
    items.map((i) => [String(i.project ?? ''), String(i.name ?? ''), [...i.scenes].sort()]).sort(),
  );
}
const inputKey = (items: readonly Item[]) =>
  orderKey(items.map((i) => ({ project: i.project_id, name: i.name, scenes: i.item_ids ?? [] })));

/** Outbox states of an order that is, or will be, on the service: a second one is a duplicate. */
export const LIVE_ORDER_STATES = [
  'queued',
  'sending',
  'sent',
  'blocked',
  'unconfirmed',
  'handed_over',
] as const;

function sceneOf(record: { details?: unknown }): Scene | undefined {
  const d = record.details as
    | {
        id?: unknown;
        geometry?: Geometry | null;
        properties?: { platform?: unknown };
        assets?: Record<string, { 'eo:bands'?: Array<{ name?: unknown }> }>;
      }
    | undefined;
  if (typeof d?.id !== 'string') return undefined;
  const bands = new Set<string>();
  for (const asset of Object.values(d.assets ?? {})) {
    for (const b of asset?.['eo:bands'] ?? []) if (typeof b?.name === 'string') bands.add(b.name);
  }
  const platform = d.properties?.platform;
  return {
    id: d.id,
    satellite: typeof platform === 'string' && platform ? platform : undefined,
    bands: [...bands],
    footprint: d.geometry ?? null,
  };
}

export function makeOrderChecks(db: Database.Database) {
  const search = makeOfflineCatalogSearch(db);
  const bandsetJson = db
    .prepare("SELECT json FROM mirror_reference WHERE kind = 'bandset' AND id = ?")
    .pluck();

  /** A bandset's band names, from the service's list; null when it did not list it. */
  function bandsetBands(id: string): string[] | null {
    const json = bandsetJson.get(id) as string | undefined;
    if (!json) return null;
    const bands = (JSON.parse(json) as { bands?: unknown }).bands;
    if (!Array.isArray(bands)) return null;
    return bands.flatMap((b: unknown) => {
      const name = typeof b === 'string' ? b : (b as { name?: unknown } | null)?.name;
      return typeof name === 'string' ? [name] : [];
    });
  }

  function mirroredScenes(ids: readonly string[]): Map<string, Scene> {
    const scenes = new Map<string, Scene>();
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = [...new Set(ids.slice(i, i + 1000))];
      for (const r of search({ item_ids: chunk, limit: 1000 }).catalogs) {
        const s = sceneOf(r);
        if (s && !scenes.has(s.id)) scenes.set(s.id, s);
      }
    }
    return scenes;
  }

  /** A mirrored order with the same items and scenes, by the first item's name and project. */
  function placedDuplicate(items: readonly Item[]): string | undefined {
    const first = items[0]!;
    const key = inputKey(items);
    const orderIds = new Set(
      filterOrderItems<{ order_id: string; name?: string }>(db, {
        text: first.name,
        projectId: first.project_id,
      })
        .filter((r) => r.name === first.name)
        .map((r) => r.order_id),
    );
    for (const orderId of orderIds) {
      const placed = filterOrderItems<{
        name?: string;
        project_id?: string;
        images?: Array<{ item_id?: string }> | null;
      }>(db, { orderId });
      const scenes = (r: (typeof placed)[number]) => (r.images ?? []).map((i) => String(i.item_id));
      if (
        orderKey(
          placed.map((r) => ({ project: r.project_id, name: r.name, scenes: scenes(r) })),
        ) === key
      )
        return orderId;
    }
    return undefined;
  }

  /**
   * Problems with an order input that passed its schema; `others`: the outbox's other entries
   * in `LIVE_ORDER_STATES`. Each bandset problem carries `fix`: the order's items with every such item split
   * one per satellite (`splitBySatellite`), for the caller to queue instead.
   */
  return function checkOrder(
    input: { order_items: Item[] },
    others: readonly OutboxEntry[],
  ): FieldProblem[] {
    const items = input.order_items;
    const scenes = mirroredScenes(items.flatMap((i) => i.item_ids ?? []));
    const problems: FieldProblem[] = [];
    const mixed: Array<{ n: number; path: string; message: string }> = [];

    items.forEach((item, n) => {
      const ids = item.item_ids ?? [];
      const named = `item "${item.name}"`;
      const label = (s: Scene) => `${s.id}${s.satellite ? ` (${s.satellite})` : ''}`;
      const known = ids.flatMap((id, k) => {
        const s = scenes.get(id);
        return s ? [{ k, s }] : [];
      });
      const banded = known.filter((x) => x.s.bands.length > 0);
      const j = firstSceneSharingNoBand(banded.map((x) => x.s.bands));
      if (j > 0) {
        const other = banded.find((x) => x.s.satellite !== banded[j]!.s.satellite) ?? banded[0]!;
        mixed.push({
          n,
          path: `order_items.${n}.item_ids.${banded[j]!.k}`,
          message:
            `${named}: scenes ${label(other.s)} and ${label(banded[j]!.s)} share no bandset, ` +
            'so the service would refuse the order; order them as separate items, one per satellite',
        });
      }
      const area = item.geometry.features.map((f) => f.geometry as Geometry);
      for (const { k, s } of known) {
        if (s.footprint && !area.some((g) => geometryIntersects(s.footprint!, g))) {
          problems.push({
            path: `order_items.${n}.item_ids.${k}`,
            message: `${named}: scene ${label(s)} does not touch the item's area`,
          });
        }
      }
    });

    if (mixed.length > 0) {
      const split = new Set(mixed.map((m) => m.n));
      // The item's bandset goes only with the scenes it fits (the others take their own).
      const fitsOf = (item: Item) => {
        const bands = item.bandset ? bandsetBands(item.bandset.bandset_id) : null;
        if (!bands) return undefined;
        return (ids: readonly string[]) => {
          const banded = ids.flatMap((id) => {
            const b = scenes.get(id)?.bands ?? [];
            return b.length > 0 ? [b] : [];
          });
          return banded.length > 0 && banded.every((b) => bandsetFits(bands, b));
        };
      };
      const fix = {
        order_items: items.flatMap((item, n) =>
          split.has(n)
            ? splitBySatellite(item, (id) => scenes.get(id)?.satellite, fitsOf(item))
            : [item],
        ),
      };
      const suggested = fix.order_items
        .map((i) => `"${i.name}": ${(i.item_ids ?? []).join(', ')}`)
        .join('; ');
      for (const m of mixed)
        problems.push({ path: m.path, message: `${m.message} (${suggested})`, fix });
    }

    // Only orders of archive scenes are compared: a tasking item is its area and dates, which
    // the key does not hold, so two tasking orders with one name (a team's "Field survey" of
    // two fields) are two orders, not a duplicate.
    if (!items.every((i) => (i.item_ids ?? []).length > 0)) return problems;
    const key = inputKey(items);
    const queued = others.find(
      (e) =>
        e.kind === 'order' && inputKey((e.input as { order_items: Item[] }).order_items) === key,
    );
    const placed = queued ? undefined : placedDuplicate(items);
    if (queued || placed) {
      problems.push({
        path: 'order_items',
        message: queued
          ? `the same order (same items, same scenes) is already in the outbox (${queued.state}, entry ${queued.id})`
          : `the same order (same items, same scenes) was already placed (order ${placed})`,
      });
    }
    return problems;
  };
}
