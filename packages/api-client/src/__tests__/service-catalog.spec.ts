/**
 * Against the real service: catalog search, archive collection items and satellite image
 * search (landed on main with the server's catalog work), through single calls and pagers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/service';
import { allItems, createEoClient, EoApiError, type EoClient } from '../index';

let svc: TestService;
let client: EoClient;
const drift: unknown[] = [];
beforeAll(async () => {
  svc = await startService();
  client = createEoClient({
    baseUrl: svc.url,
    apiKey: svc.key,
    onSchemaDrift: (e) => drift.push(e),
  });
});
afterAll(async () => {
  expect(drift).toEqual([]);
  await svc.close();
});

describe('catalog search', () => {
  it('pages through every demo record in the same order as one large request', async () => {
    const all = await client.searchCatalogs({ limit: 1000 });
    expect(all.catalogs.length).toBeGreaterThan(50);
    expect(all.pagination).toMatchObject({ total: all.catalogs.length });
    const paged = [];
    for await (const record of allItems(client.pages.catalogs({}, { pageSize: 40 })))
      paged.push(record.id);
    expect(paged).toEqual(all.catalogs.map((r) => r.id));
  });

  it('filters by bbox across the pager and reports totals for progress', async () => {
    const first = (await client.searchCatalogs({ limit: 1 })).catalogs[0]!;
    const [w, s, e, n] = first.details.bbox!;
    const search = { bbox: [w! - 1, s! - 1, e! + 1, n! + 1] as [number, number, number, number] };
    const totals: Array<number | undefined> = [];
    const ids: string[] = [];
    for await (const page of client.pages.catalogs(search, { pageSize: 5 })) {
      totals.push(page.total);
      ids.push(...page.items.map((r) => r.id));
    }
    expect(ids).toContain(first.id);
    expect(new Set(totals)).toEqual(new Set([ids.length]));
  });

  it('surfaces a 400 with the field path for an invalid search', async () => {
    const err = await client
      .searchCatalogs({ datetime: '2024-02-01T00:00:00Z/2024-01-01T00:00:00Z' }, {})
      .catch((e: unknown) => e);
    // the client validates before sending: nothing reaches the service
    expect((err as { details?: Array<{ path: string }> }).details?.[0]?.path).toBe('datetime');
  });
});

describe('archive collection items', () => {
  it('lists a collection page by page until numberMatched', async () => {
    const firstPage = await client.listArchiveItems('col-kestrel-ortho', { limit: 5 });
    expect(firstPage.features).toHaveLength(5);
    const ids = [];
    for await (const f of allItems(
      client.pages.archiveItems('col-kestrel-ortho', {}, { pageSize: 250 }),
    ))
      ids.push(f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe((firstPage as { numberMatched?: number }).numberMatched);
  });

  it('404s an unknown collection as an EoApiError', async () => {
    const err = await client.listArchiveItems('col-nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoApiError);
    expect((err as EoApiError).status).toBe(404);
  });
});

describe('satellite image search', () => {
  it('follows skip-based pagination over the FeatureCollection items', async () => {
    const body = {
      satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
      filters: [{ id: 'eo:cloud_cover', max: 50 }],
    };
    const first = await client.searchSatelliteImages({ ...body, limit: 10 });
    expect(first.pagination).toMatchObject({ limit: 10, skip: 0 });
    const total = first.pagination.total;
    const seen: string[] = [];
    for await (const page of client.pages.satelliteImages(body, { pageSize: 200 })) {
      seen.push(...page.items.map((f) => String((f as { id: unknown }).id)));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });
});
