import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import { DEMO_SITES, seedDemoSites } from '../demo-sites';
import { seedDemoWork } from '../demo-work';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ scenes: 20 });
});
afterEach(() => t.close());

const now = Date.UTC(2025, 6, 1);

describe('demo field sites', () => {
  it('are several dates of one place in the demo catalog, added once', async () => {
    expect(seedDemoSites(t.app.ctx.sqlite, now)).toBe(
      DEMO_SITES.reduce((n, s) => n + s.dates.length, 0),
    );
    expect(seedDemoSites(t.app.ctx.sqlite, now)).toBe(0);
    for (const site of DEMO_SITES) {
      const res = await t.call({
        method: 'POST',
        url: '/v0/catalogs/search',
        payload: { intersects: { type: 'Point', coordinates: [site.lon, site.lat] }, limit: 50 },
      });
      expect(res.statusCode).toBe(200);
      const features = (
        res.json().catalogs as Array<{
          id: string;
          details: {
            properties: { datetime: string; 'eo:cloud_cover': number; 'proj:epsg': number };
          };
        }>
      ).map((r) => ({ id: r.id, properties: r.details.properties }));
      // Every date covers the site's centre (the compare swipe and date slider have a pair).
      const dates = features.map((f) => f.properties.datetime.slice(0, 10)).sort();
      expect(dates).toEqual(site.dates.map((d) => d.day));
      expect(new Set(features.map((f) => f.id)).size).toBe(site.dates.length);
      expect(features.map((f) => f.properties['eo:cloud_cover']).sort()).toEqual(
        site.dates.map((d) => d.cloud).sort(),
      );
    }
  });

  it('carry orders and AOIs made through the API, which then move on their own', async () => {
    seedDemoSites(t.app.ctx.sqlite, now);
    expect(await seedDemoWork(t.app, t.key, Date.now())).toEqual({ orders: 3, aois: 2 });
    // A restart makes nothing more.
    expect(await seedDemoWork(t.app, t.key, Date.now())).toEqual({ orders: 0, aois: 0 });
    const before = (await t.call({ method: 'GET', url: '/v0/orders' })).json();
    expect(before.orders.map((o: { status: string }) => o.status)).toEqual([
      'UNPAID',
      'UNPAID',
      'UNPAID',
    ]);
    t.app.ctx.worker.drain();
    const orders = (await t.call({ method: 'GET', url: '/v0/orders' })).json().orders as Array<{
      status: string;
    }>;
    expect(orders.map((o) => o.status)).toEqual(['PAID', 'PAID', 'PAID']);
    const items = (await t.call({ method: 'GET', url: '/v0/order-items?limit=50' })).json()
      .order_items as Array<{ name: string; status: string }>;
    const byName = Object.fromEntries(items.map((i) => [i.name, i.status]));
    expect(byName['Camargue rice fields, spring and summer']).toBe('COMPLETED');
    expect(Object.keys(byName)).toHaveLength(3);
    const aois = (await t.call({ method: 'GET', url: '/v0/aois' })).json().aois as Array<{
      status: string;
    }>;
    expect(aois.map((a) => a.status)).toEqual(['success', 'success']);
  });
});
