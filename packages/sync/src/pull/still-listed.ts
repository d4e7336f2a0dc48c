/**
 * Asking the service, by id, whether records a pass did not see are still listed: before a sweep
 * (a record the pages skipped must not be deleted), and to complete a list whose pages skipped
 * records (completeness.ts). Catalog search and order items filter by many ids at once (1000 in
 * a search body, 100 in a query string: URL length); AOIs and indices by one id per request, so
 * those are asked only while records are missing, and at most `MAX_SINGLE_ID_CHECKS` of them.
 */
import type { EoClient, Page } from '@eo/api-client';
import { LIMITS, readId } from '@eo/domain';
import type { ResourceName } from '../mirror/writers';
import { idFieldOf } from './drift';
import { isRecord, type CatalogSearch, type PassContext } from './pass-context';
import type { PassIds } from './pass-ids';

/** Most one-id requests a pass makes to find what its pages skipped. */
export const MAX_SINGLE_ID_CHECKS = 100;

export interface ByIdCheck {
  /** Ids asked per request; 1: one request per id (asked only while records are missing). */
  readonly perRequest: number;
  /** The records among `ids` the service lists, with the list of the pass (part) listing them. */
  find(ids: readonly string[], signal?: AbortSignal): AsyncIterable<Found>;
}

export interface Found {
  readonly part: number;
  readonly items: readonly unknown[];
}

async function* asFound(part: number, pages: AsyncIterable<Page<unknown>>): AsyncIterable<Found> {
  for await (const page of pages) yield { part, items: page.items };
}

/** One id asked alone: the record whose id is `id` (a service may ignore the filter). */
async function* single(
  id: string,
  field: string,
  read: () => Promise<readonly unknown[]>,
): AsyncIterable<Found> {
  const match = (await read()).filter(
    (r) =>
      typeof r === 'object' && r !== null && readId((r as Record<string, unknown>)[field]) === id,
  );
  if (match.length > 0) yield { part: 0, items: match };
}

export function makeByIdChecks(
  client: EoClient,
  searches: readonly CatalogSearch[],
): Partial<Record<ResourceName, ByIdCheck>> {
  const all = { pageSize: LIMITS.maxLimit };
  return {
    catalogs: {
      perRequest: LIMITS.maxIdsPerFilter,
      async *find(ids, signal) {
        for (const [part, search] of searches.entries()) {
          // Within the search: a saved search's own id list narrows the ids asked for.
          const own = search.ids === undefined ? null : new Set(search.ids);
          const asked = own === null ? [...ids] : ids.filter((id) => own.has(id));
          if (asked.length === 0) continue;
          yield* asFound(
            part,
            client.pages.catalogs({ ...search, ids: asked }, { ...all, signal }),
          );
        }
      },
    },
    orderItems: {
      perRequest: 100,
      find: (ids, signal) =>
        asFound(0, client.pages.orderItems({ ids: [...ids] }, { ...all, signal })),
    },
    aois: {
      perRequest: 1,
      async *find([id], signal) {
        yield* single(id!, 'aoi_id', async () => {
          const page = await client.listAois({ aoi_id: id!, limit: 1 }, { signal });
          return page.aois;
        });
      },
    },
    indices: {
      perRequest: 1,
      async *find([id], signal) {
        yield* single(id!, 'id', async () => {
          const page = await client.listIndices({ index_id: id!, limit: 1 }, { signal });
          return page.indices;
        });
      },
    },
  };
}

/**
 * Before a sweep, asks the service by id for the rows the pass did not see: offset paging
 * skips a record when the list moves or the service repeats another, and such a record must
 * not be swept. Those still listed are stamped with the pass and counted as seen by the list
 * that lists them. One-id checks run only while `missing` records are unaccounted for.
 */
export async function keepStillListed(
  ctx: PassContext,
  resource: ResourceName,
  passId: string,
  ids: PassIds,
  missing: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const check = ctx.byId[resource];
  const writer = ctx.writers[resource];
  if (!check || !writer.unseen) return;
  let unseen = writer.unseen(passId);
  if (check.perRequest === 1) {
    if (missing <= 0) return;
    unseen = unseen.slice(0, MAX_SINGLE_ID_CHECKS);
  }
  const field = idFieldOf(resource);
  const keep = ctx.sqlite.transaction((items: readonly unknown[]) => {
    writer.write(items, passId);
  });
  let found = 0;
  for (let i = 0; i < unseen.length; i += check.perRequest) {
    for await (const { part, items } of check.find(unseen.slice(i, i + check.perRequest), signal)) {
      keep(items);
      for (const item of items) {
        const id = isRecord(item) ? readId(item[field]) : null;
        if (id !== null && !ids.see(part, id).repeat) found++;
      }
    }
    if (check.perRequest === 1 && found >= missing) return;
  }
}
