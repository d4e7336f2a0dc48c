/**
 * Asking the service, by id, whether records a pass did not see are still listed: before a sweep
 * (a record the pages skipped must not be deleted), and to complete a list whose pages skipped
 * records (completeness.ts). Catalog search and order items filter by many ids at once (1000 in
 * a search body, 100 in a query string: URL length); AOIs and indices by one id per request, so
 * those are asked only while records are missing, and at most `MAX_SINGLE_ID_CHECKS` of them.
 */
import type { BodyInput, EoClient, Page } from '@eo/api-client';
import { LIMITS, readId } from '@eo/domain';
import type { ResourceName } from '../mirror/writers';

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

type CatalogSearch = Omit<BodyInput<'searchCatalogs'>, 'limit' | 'offset'>;

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
