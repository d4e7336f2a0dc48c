/**
 * Local ids: a queued create may name another queued create before either reaches the service.
 *
 * - `local:<entryId>`: the created resource's id (a visualization's `aoi_id` on a queued AOI,
 *   its `index_id` on a queued custom index).
 * - `local:<entryId>#scenes` in a visualization's `src_asset_ids`: every source asset of that
 *   queued AOI (assets only exist once the AOI is created; the service produces them). Which
 *   asset types are sources is the service profile's (`sourceAssetTypes`): `scene` for our
 *   spec, `mosaic` and `stac_item` for the provider's service, which never sends `scene`.
 * - `local:<entryId>#<n>` in a delivery's `order_item_ids`: the n-th item (0-based) of a queued
 *   order, in request order.
 */
import { allItems, EoClientError, type EoClient } from '@eo/api-client';
import type { OutboxKind } from './kinds';

export const LOCAL_PREFIX = 'local:';
export const SCENES_PART = 'scenes';

export interface LocalReference {
  /** Dotted path of the field holding the reference, e.g. `deliveries.0.order_item_ids.2`. */
  readonly path: string;
  readonly entryId: string;
  /** The kind of entry the reference must point at. */
  readonly expects: OutboxKind;
  /** After `#`: `scenes`, an item index, or undefined for the resource itself. */
  readonly part: string | undefined;
}

export function isLocalId(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(LOCAL_PREFIX);
}

function parse(value: string, path: string, expects: OutboxKind): LocalReference {
  const rest = value.slice(LOCAL_PREFIX.length);
  const hash = rest.indexOf('#');
  return {
    path,
    expects,
    entryId: hash < 0 ? rest : rest.slice(0, hash),
    part: hash < 0 ? undefined : rest.slice(hash + 1),
  };
}

/** Every `local:` reference in a validated input, with the field it sits in. */
export function findReferences(kind: OutboxKind, input: Record<string, unknown>): LocalReference[] {
  const refs: LocalReference[] = [];
  if (kind === 'visualization') {
    if (isLocalId(input.aoi_id)) refs.push(parse(input.aoi_id, 'aoi_id', 'aoi'));
    if (isLocalId(input.index_id)) refs.push(parse(input.index_id, 'index_id', 'index'));
    (input.src_asset_ids as unknown[]).forEach((id, k) => {
      if (isLocalId(id)) refs.push(parse(id, `src_asset_ids.${k}`, 'aoi'));
    });
  }
  if (kind === 'delivery') {
    (input.deliveries as Array<{ order_item_ids?: unknown[] }>).forEach((d, n) => {
      d.order_item_ids?.forEach((id, k) => {
        if (isLocalId(id)) refs.push(parse(id, `deliveries.${n}.order_item_ids.${k}`, 'order'));
      });
    });
  }
  return refs;
}

/** What each reference must look like, given the entry it points at. Returns a problem or null. */
export function checkReference(
  ref: LocalReference,
  kind: OutboxKind,
  input: Record<string, unknown>,
  target: { kind: string; state: string; input: Record<string, unknown> } | undefined,
): string | null {
  if (!target) return `no outbox entry ${ref.entryId}`;
  if (target.kind !== ref.expects)
    return `outbox entry ${ref.entryId} is a ${target.kind}, not a ${ref.expects}`;
  if (target.state === 'cancelled') return `outbox entry ${ref.entryId} is cancelled`;
  if (ref.path === 'aoi_id' || ref.path === 'index_id') {
    return ref.part === undefined ? null : `use local:${ref.entryId} without a #part here`;
  }
  if (kind === 'visualization') {
    if (ref.part !== SCENES_PART)
      return `use local:${ref.entryId}#${SCENES_PART} for the source assets of a queued AOI`;
    if (input.aoi_id !== `${LOCAL_PREFIX}${ref.entryId}`)
      return "the source assets must be those of the visualization's own (queued) AOI";
    return null;
  }
  const itemCount = (target.input.order_items as unknown[]).length;
  const n = ref.part === undefined || !/^\d+$/.test(ref.part) ? NaN : Number(ref.part);
  if (!(n < itemCount)) return `use local:${ref.entryId}#<item index>, 0 to ${itemCount - 1}`;
  return null;
}

export interface SentEntry {
  readonly remoteId: string | null;
  readonly response: unknown;
}

/**
 * The input with every reference replaced by real ids. `sent(entryId)` gives the entry the
 * reference points at (sent: dependencies go first); `sceneAssets(aoiId)` lists an AOI's source
 * asset ids (`sourceAssetIds`).
 */
export async function resolveReferences(
  kind: OutboxKind,
  input: Record<string, unknown>,
  sent: (entryId: string) => SentEntry,
  sceneAssets: (aoiId: string) => Promise<string[]>,
): Promise<Record<string, unknown>> {
  const real = (value: unknown, expects: OutboxKind) =>
    isLocalId(value) ? String(sent(parse(value, '', expects).entryId).remoteId) : value;
  if (kind === 'visualization') {
    const src: string[] = [];
    for (const id of input.src_asset_ids as string[]) {
      if (!isLocalId(id)) src.push(id);
      else src.push(...(await sceneAssets(String(sent(parse(id, '', 'aoi').entryId).remoteId))));
    }
    return {
      ...input,
      aoi_id: real(input.aoi_id, 'aoi'),
      index_id: real(input.index_id, 'index'),
      src_asset_ids: [...new Set(src)],
    };
  }
  if (kind === 'delivery') {
    const deliveries = (input.deliveries as Array<Record<string, unknown>>).map((d) => {
      const ids = d.order_item_ids as string[] | undefined;
      if (!ids) return d;
      return {
        ...d,
        order_item_ids: ids.map((id) => {
          if (!isLocalId(id)) return id;
          const ref = parse(id, '', 'order');
          const order = sent(ref.entryId).response as { order_items: Array<{ id: string }> };
          return order.order_items[Number(ref.part)]!.id;
        }),
      };
    });
    return { ...input, deliveries };
  }
  return input;
}

/**
 * The AOI lists none of the asset types a visualization is made from (yet): the service is
 * still producing them. Transient (`retryable`): nothing was sent, and the outbox sends the
 * visualization on a later flush, once they exist.
 */
export class SourceAssetsNotReadyError extends EoClientError {
  readonly kind = 'response' as const;
  readonly retryable = true;
  constructor(aoiId: string, wanted: readonly string[], seen: ReadonlyMap<string, number>) {
    const listed = [...seen].map(([type, n]) => `${n} ${type}`).join(', ');
    super({
      message:
        `AOI ${aoiId} has no ${wanted.join(' or ')} asset yet to visualize ` +
        `(it lists ${listed || 'no assets'}): the service is still producing them; ` +
        'the visualization waits and is sent on a later flush',
      endpoint: 'listAoiAssets',
      method: 'GET',
      path: `/v0/aois/${encodeURIComponent(aoiId)}/assets`,
    });
  }
}

/**
 * The ids of an AOI's assets a visualization is made from, by the client's service profile
 * (`client.profile.sourceAssetTypes`). Throws `SourceAssetsNotReadyError` when there are none.
 */
export async function sourceAssetIds(
  client: EoClient,
  aoiId: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const wanted = client.profile.sourceAssetTypes;
  const ids: string[] = [];
  const seen = new Map<string, number>();
  for await (const asset of allItems(
    client.pages.aoiAssets(aoiId, {}, { pageSize: 1000, signal }),
  )) {
    const type = typeof asset.asset_type === 'string' ? asset.asset_type : 'untyped';
    if (wanted.includes(type)) ids.push(String(asset.id));
    else seen.set(type, (seen.get(type) ?? 0) + 1);
  }
  if (ids.length === 0) throw new SourceAssetsNotReadyError(aoiId, wanted, seen);
  return ids;
}
