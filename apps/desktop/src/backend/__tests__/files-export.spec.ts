/**
 * `files.export` through the backend's dispatch (output checked against the contract), from a
 * mirror synced with the real reference service, then offline: each format read back by the
 * backend itself (`files.preview`, @eo/formats' readers) and compared with the records.
 */
import { EXPORT_FORMATS, type ExportFormat } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportedFile } from '../../shared/contract';
import { createEoClient } from '@eo/api-client';
import { DEMO } from '@eo/fixtures';
import { insertCatalogRecords } from '@eo/reference-service';
import { aoiInput, auroraScene, taskingOrder } from './create-inputs';
import { startBackend, startService, type TestBackend, type TestService } from './harness';

let service: TestService;
let t: TestBackend;

beforeAll(async () => {
  service = await startService(300);
  // More catalog records than one page of the mirror's search (LIMITS.maxLimit, 1,000).
  insertCatalogRecords(service.server.app.ctx.sqlite, 1200, {
    orgId: DEMO.orgId,
    userId: DEMO.users[0].id,
    nowUs: Date.now() * 1000,
  });
  t = startBackend();
  const online = t.waitFor(
    'connectivity.changed',
    (p) => (p as { state: string }).state === 'online',
  );
  // "Submit all" sends the order too (orders otherwise wait for their price review).
  await t.call('settings.update', {
    serviceUrl: service.url,
    apiKey: service.key,
    autoSendOrders: true,
  });
  await online;
  const sync = async () => {
    const finished = t.waitFor('sync.finished');
    await t.call('sync.run', {});
    await finished;
  };
  await sync();
  // Two AOIs (one with a non-ASCII name), an order of two items, a delivery of two scenes.
  const scene = await auroraScene(createEoClient({ baseUrl: service.url, apiKey: service.key }));
  const [w, s, e, n] = scene.box;
  for (const [name, box] of [
    ['Wiese am Bach – Süd', scene.box],
    ['Acker Nord', [w, s, (w + e) / 2, (s + n) / 2] as const],
  ] as const)
    await t.call('outbox.enqueue', { kind: 'aoi', input: aoiInput(name, scene.id, box) });
  await t.call('outbox.enqueue', {
    kind: 'order',
    input: taskingOrder([{ name: 'Vineyard north' }, { name: 'Vineyard south' }]),
  });
  // A delivery of two catalog scenes, created by this client (the service lists none).
  const scenes = await t.call('catalog.search', { limit: 2 });
  await t.call('outbox.enqueue', {
    kind: 'delivery',
    input: {
      deliveries: [
        {
          catalog_ids: scenes.items.map((r) => r.id),
          cloud_info: { config: 's3-default', path: 'field/export' },
        },
      ],
    },
  });
  const flushed = await t.call('outbox.flush');
  expect(flushed).toMatchObject({ sent: 4, failed: 0 });
  await sync();
  // Offline from here: the exports read the mirror only.
  await service.close();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** The exported file read back by the backend, as an import would. */
async function readBack(file: ExportedFile, name = file.fileName.replace(/\.shp\.zip$/, '.zip')) {
  return t.call('files.preview', { name, base64: file.base64 });
}

describe('files.export', () => {
  // Each read back is an import in a thread of its own, loaded from sources (seconds each on
  // a busy machine): six of them pass the default minute.
  it(
    'AOIs: every format reads back with the same names and areas',
    { timeout: 240_000 },
    async () => {
      const aois = await t.call('aois.list', {});
      expect(aois.length).toBeGreaterThan(1);
      const byName = new Map(aois.map((a) => [a.name, a.geometry]));
      for (const format of EXPORT_FORMATS) {
        // CSV is read back through its WKT column (without it a CSV holds attributes only).
        const file = await t.call('files.export', {
          source: { kind: 'aois' },
          format,
          ...(format === 'csv' ? { wkt: true } : {}),
        });
        expect(file.features, format).toBe(aois.length);
        expect(file.bytes, format).toBe(Buffer.from(file.base64, 'base64').length);
        expect(file.fileName, format).toMatch(
          new RegExp(`^eo-aois-\\d{8}-\\d{4}\\.${format === 'shp' ? 'shp\\.zip' : format}$`),
        );
        const back = await readBack(file);
        expect(back.features.map((f) => f.name).sort(), format).toEqual(
          aois.map((a) => a.name).sort(),
        );
        for (const f of back.features) {
          expect(f.problem, `${format} ${f.name}`).toBeNull();
          expect(f.area, `${format} ${f.name}`).toEqual(byName.get(f.name));
        }
      }
    },
  );

  it('the AOIs listed, by their ids: every one (issue 26, defect 9)', async () => {
    const aois = await t.call('aois.list', {});
    const ids = aois.map((a) => a.aoi_id);
    const file = await t.call('files.export', { source: { kind: 'aois', ids }, format: 'geojson' });
    expect(file.features).toBe(aois.length);
    // One of them only: that one.
    const one = await t.call('files.export', {
      source: { kind: 'aois', ids: [ids[0]!] },
      format: 'geojson',
    });
    expect(one.features).toBe(1);
  });

  it('CSV carries each area as WKT by default; without it, the attributes only', async () => {
    const withWkt = await t.call('files.export', { source: { kind: 'aois' }, format: 'csv' });
    expect(Buffer.from(withWkt.base64, 'base64').toString('utf8').split(/\r?\n/)[0]).toMatch(
      /,wkt$/,
    );
    const file = await t.call('files.export', {
      source: { kind: 'aois' },
      format: 'csv',
      wkt: false,
    });
    const [header] = Buffer.from(file.base64, 'base64').toString('utf8').split(/\r?\n/);
    expect(header).toMatch(/(^|,)name(,|$)/);
    expect(header).not.toMatch(/wkt/i);
    const back = await t.raw('files.preview', { name: file.fileName, base64: file.base64 });
    expect(back).toMatchObject({ ok: false, error: { message: /no geometry column/ } });
  });

  it('orders: one feature per order item, KML styled by status', async () => {
    const orders = await t.call('orders.list', {});
    const items = await t.call('orderItems.list', {});
    expect(items.length).toBeGreaterThan(1);
    const file = await t.call('files.export', { source: { kind: 'orders' }, format: 'kmz' });
    expect(file.features).toBe(items.length);
    expect(file.mediaType).toBe('application/vnd.google-earth.kmz');
    const text = await t.call('files.export', { source: { kind: 'orders' }, format: 'kml' });
    const kml = Buffer.from(text.base64, 'base64').toString('utf8');
    expect(kml).toMatch(/<Style id=/);
    expect(kml).toMatch(/<styleUrl>#/);
    const back = await readBack(file);
    expect(back.features.map((f) => f.properties['order_id']).sort()).toEqual(
      items.map((i) => i.order_id).sort(),
    );
    // One order: its items only.
    const one = orders.find((o) => items.some((i) => i.order_id === o.id))!;
    const mine = await t.call('files.export', {
      source: { kind: 'orders', ids: [one.id] },
      format: 'geojson',
    });
    const fc = JSON.parse(Buffer.from(mine.base64, 'base64').toString('utf8')) as {
      features: Array<{ properties: Record<string, unknown> }>;
    };
    expect(fc.features.map((f) => f.properties['order_id'])).toEqual(
      items.filter((i) => i.order_id === one.id).map(() => one.id),
    );
    expect(fc.features[0]!.properties['order_status']).toBe(one.status);
  });

  it('catalog: every match of a search, past the mirror search page of 1,000', async () => {
    const all = await t.call('catalog.search', { limit: 1 });
    expect(all.total).toBeGreaterThan(1000);
    const file = await t.call('files.export', {
      source: { kind: 'catalog', query: { limit: 1 } },
      format: 'geojson',
    });
    expect(file.features).toBe(all.total);
    const fc = JSON.parse(Buffer.from(file.base64, 'base64').toString('utf8')) as {
      features: Array<{ properties: { id: string } }>;
    };
    expect(new Set(fc.features.map((f) => f.properties.id)).size).toBe(all.total);
  });

  it('catalog: every match of a filtered search (not one page), and the selection', async () => {
    const first = await t.call('catalog.search', { limit: 1 });
    const query = { collections: [first.items[0]!.collection!] };
    const page = await t.call('catalog.search', { ...query, limit: 10 });
    expect(page.total).toBeGreaterThan(10);
    const file = await t.call('files.export', {
      source: { kind: 'catalog', query: { ...query, limit: 10 } },
      format: 'gpkg',
    });
    expect(file.features).toBe(page.total);
    const back = await readBack(file);
    expect(back.format).toBe('geopackage');
    expect(back.features).toHaveLength(page.total);

    const ids = page.items.slice(0, 3).map((r) => r.id);
    const sel = await t.call('files.export', {
      source: { kind: 'catalogRecords', ids },
      format: 'csv',
      wkt: true,
    });
    expect(sel.fileName).toMatch(/^eo-selection-/);
    const rows = await readBack(sel);
    expect(rows.features.map((f) => f.properties['id'])).toEqual(ids);
  });

  it('deliveries: with the footprints they deliver', async () => {
    const deliveries = await t.call('deliveries.list');
    expect(deliveries.length).toBe(2);
    const file = await t.call('files.export', { source: { kind: 'deliveries' }, format: 'shp' });
    const back = await readBack(file);
    expect(back.features).toHaveLength(2);
    expect(back.features.map((f) => f.properties['cloud_path'])).toEqual([
      'field/export',
      'field/export',
    ]);
    expect(back.features.every((f) => f.area !== null)).toBe(true);
  });

  it('refuses wkt with another format and an unknown format, before any export', async () => {
    const r = await t.raw('files.export', { source: { kind: 'aois' }, format: 'kml', wkt: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    const f = await t.raw('files.export', {
      source: { kind: 'aois' },
      format: 'dxf' as ExportFormat,
    });
    expect(f).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});
