/**
 * `catalog.cloudHistogram` through the real backend over a mirror synced from the real
 * reference service: the bins equal a count of the listed rows' cloud cover with the query's
 * other filters (its cloud filter left out), and a malformed query is refused by dispatch.
 */
import { CLOUD_COVER_BINS, cloudCoverBin } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRow } from '../../shared/contract';
import {
  connectTo,
  startBackend,
  startService,
  syncToEnd,
  type TestBackend,
  type TestService,
} from './harness';

let service: TestService;
let t: TestBackend;
beforeAll(async () => {
  service = await startService(400);
  t = await connectTo(startBackend(), service);
  await syncToEnd(t);
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

/** Every row a query lists, page by page. */
async function allRows(query: Record<string, unknown>): Promise<CatalogRow[]> {
  const rows: CatalogRow[] = [];
  for (;;) {
    const page = await t.call('catalog.search', { ...query, limit: 1000, offset: rows.length });
    rows.push(...page.items);
    if (rows.length >= page.total || page.items.length === 0) return rows;
  }
}

describe('catalog.cloudHistogram', () => {
  it('bins the cloud cover of the matches of the query less its cloud filter', async () => {
    const area = [-180, -60, 180, 60] as [number, number, number, number];
    const rows = await allRows({ bbox: area });
    expect(rows.length).toBeGreaterThan(0);
    const bins = new Array<number>(CLOUD_COVER_BINS).fill(0);
    for (const r of rows) if (r.cloudCover !== null) bins[cloudCoverBin(r.cloudCover)]!++;
    const withoutCloud = rows.filter((r) => r.cloudCover === null).length;

    const got = await t.call('catalog.cloudHistogram', {
      bbox: area,
      query: { 'eo:cloud_cover': { lt: 20 } },
    });
    expect(got).toEqual({ bins, total: rows.length, withoutCloud });
    // More than one bin filled: the cloud filter (< 20 %) was not applied.
    expect(bins.filter((n) => n > 0).length).toBeGreaterThan(2);
  });

  it('refuses a malformed query with field paths, before the mirror is read', async () => {
    expect(await t.raw('catalog.cloudHistogram', { bbox: [0, 0, 1] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', details: { issues: [{ path: 'bbox' }] } },
    });
    expect(
      await t.raw('catalog.cloudHistogram', { query: { 'eo:cloud_cover': { lte: 'x', nope: 1 } } }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});
