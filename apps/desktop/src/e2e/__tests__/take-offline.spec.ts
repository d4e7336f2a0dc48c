/**
 * A site's real pixels taken offline through the whole path, in headless Chromium: the
 * reference service on 127.0.0.1 (its worker running, as a deployed one), a 1 km scene delivered
 * to the catalog by an archive order, mirrored by the app's sync; "Take offline" in the scene's
 * detail (around the map's centre, native resolution), the download followed by the backend
 * (`rasters.take`: @eo/sync asks the service, waits for the COG, reads the window's tiles by
 * ranges) to "Offline"; then the service stopped, the window opened from "Offline imagery", drawn,
 * and the pixel inspector's values equal to gdallocationinfo on the stored file at the clicked
 * point. Screenshots in test-output/e2e/take-offline/.
 */
import { createEoClient } from '@eo/api-client';
import { lonLatToMap } from '@eo/geotiff';
import { gdalInfo, gdalLocationValues } from '@eo/geotiff/testing';
import { insertSquareScene } from '@eo/reference-service';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OfflineRasterList } from '../../shared/contract';
import { useJourney, WIDE } from '../harness';
import { eventually, syncNow } from '../page-actions';

/** A 1 km Aurora scene (3 m: one 512 px tile), so its COG renders in seconds. */
const SITE = {
  id: 'E2E_TAKE_OFFLINE_SITE',
  lon: 10.95,
  lat: 45.43,
  km: 1,
  datetime: '2024-06-18T10:30:00Z',
  cloudCover: 0,
} as const;
/** The take: the scene's COG rendered, the download followed, the tiles read (a loaded machine). */
const TAKE_MS = 90_000;

const j = useJourney('take-offline', {
  // No demo scenes: the catalog holds the site's record alone, and the map fits it.
  service: { scenes: 0 },
  serviceWorkerTickMs: 20,
  page: WIDE,
  open: 'connected',
});
let recordId: string;

/** Orders the site (one archive item) and waits for its catalog record (bounded). */
async function orderSite(): Promise<string> {
  const client = createEoClient({ baseUrl: j.service.url, apiKey: j.apiKey });
  const d = 0.002;
  const ring: [number, number][] = [
    [SITE.lon - d, SITE.lat - d],
    [SITE.lon + d, SITE.lat - d],
    [SITE.lon + d, SITE.lat + d],
    [SITE.lon - d, SITE.lat + d],
    [SITE.lon - d, SITE.lat - d],
  ];
  const order = await client.createOrder({
    order_items: [
      {
        project_id: 'prj-demo-crops',
        name: 'Take offline site',
        geometry: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] } }],
        },
        item_ids: [SITE.id],
      },
    ],
  });
  // Bounded: the service's worker fulfils an archive order in well under a second.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { order_items } = await client.listOrderItems({ order_ids: [order.id] });
    const ids = order_items.flatMap((i) => (i.tasks ?? []).map((t) => t.catalog_id));
    if (ids.length === 1 && typeof ids[0] === 'string') return ids[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the archive order of the site was not fulfilled within 30 s');
}

beforeAll(async () => {
  insertSquareScene(j.service.server.app.ctx.sqlite, SITE);
  recordId = await orderSite();
  await syncNow(j.page);
});

/** The ground under a page point, as the map itself says (its pointer position, 6 digits). */
async function groundAt(x: number, y: number): Promise<[number, number]> {
  await j.page.mouse.move(x, y);
  const text = await j.page.locator('[data-test="cursor-position"]').textContent();
  const [lat, lon] = text!.split(',').map(Number) as [number, number];
  return [lon, lat];
}

describe('take a site offline from a scene, then read it with the service stopped', () => {
  it(
    '"Take offline" in the detail follows the download to the stored window',
    async () => {
      await j.tab('catalog');
      const row = j.page.locator(`[role="option"][data-id="${recordId}"]`);
      await row.click();
      // The map on the site (the take's area is around the map's centre).
      await j.page.getByRole('button', { name: 'Zoom to results' }).click();
      const box = (await j.page.locator('.catalog .map-frame__map').boundingBox())!;
      await eventually(async () => {
        const [lon, lat] = await groundAt(box.x + box.width / 2, box.y + box.height / 2);
        return Math.max(Math.abs(lon - SITE.lon), Math.abs(lat - SITE.lat)) < 0.002;
      }).toBe(true);
      const panel = j.page.locator('[data-test="take-offline"]');
      await panel.getByLabel('Radius in km').fill('0.2');
      await panel.locator('[data-test="take-resolution"]').selectOption('native');
      await panel.getByRole('button', { name: 'Take offline' }).click();
      const progress = panel.locator('[data-test="take-progress"]');
      await eventually(() => progress.textContent(), TAKE_MS).toMatch(/Offline: see|Failed/);
      expect(await progress.textContent()).toMatch(/Offline: see “Offline imagery”/);
      await j.shot('01-taken');

      const { rasters } = await j.app.call<OfflineRasterList>('rasters.list');
      expect(rasters).toHaveLength(1);
      expect(rasters[0]).toMatchObject({
        state: 'stored',
        scene: { kind: 'catalog', ref: recordId },
      });
      expect(rasters[0]!.bytes).toBeGreaterThan(0);
    },
    TAKE_MS + 20_000,
  );

  it('with the service stopped: drawn from "Offline imagery", the inspector reads what GDAL reads', async () => {
    await j.service.close();
    const { rasters } = await j.app.call<OfflineRasterList>('rasters.list');
    const raster = rasters[0]!;
    const file = findFile(j.appDir, `${raster.id}.tif`);
    const info = await gdalInfo(file);
    expect(info.bands.length).toBe(raster.raster!.bands.length);

    const toggle = j.page.locator('[data-test="offline-imagery-toggle"]');
    await eventually(() => toggle.textContent()).toMatch(/\(1\)/);
    // From the keyboard: at 1400 px the map's draw bar wraps over the toggle (its radius field
    // takes a pointer click there).
    await toggle.press('Enter');
    const opened = j.page.locator(
      '[data-test="offline-raster-select"], .offline-imagery [role="alert"], .offline-imagery__empty',
    );
    await opened.first().waitFor({ timeout: 30_000 });
    await j.shot('02-offline-panel');
    expect(
      await j.page.locator('[data-test="offline-raster-select"]').count(),
      `${await opened.first().textContent()}`,
    ).toBe(1);
    await j.page.locator('[data-test="offline-raster-select"]').selectOption(raster.id);
    await j.page.locator('[data-test="raster-combination"]').waitFor({ timeout: 30_000 });
    await eventually(
      () => j.page.locator('.eo-raster-layer canvas.leaflet-tile-loaded').count(),
      30_000,
    ).toBeGreaterThan(0);
    await j.shot('03-offline-drawn');

    // The map fits the window: its centre is inside it.
    const box = (await j.page.locator('.catalog .map-frame__map').boundingBox())!;
    const x = Math.round(box.x + box.width / 2);
    const y = Math.round(box.y + box.height / 2);
    await j.page.locator('[data-test="inspect-on-click"]').check();
    const [lon, lat] = await groundAt(x, y);
    await j.page.mouse.click(x, y);
    await j.page.locator('[data-test="pixel-reading"]').waitFor();
    const epsg = raster.raster!.epsg!;
    const [gdal] = await gdalLocationValues(file, [lonLatToMap(epsg, lon, lat)]);
    expect(
      gdal!.some((v) => v > 0),
      `GDAL reads nodata at ${lon},${lat}`,
    ).toBe(true);
    const names = raster.raster!.bands.map((b) => b.name);
    for (let b = 0; b < names.length; b++)
      await eventually(() =>
        j.page.locator(`[data-test="pixel-band-${names[b]}"] td`).first().textContent(),
      ).toBe(String(gdal![b]));
    await j.shot('04-inspector');
  });
});

/** The one file named `name` under `dir` (the mirror's imagery store). */
function findFile(dir: string, name: string): string {
  const found = (fs.readdirSync(dir, { recursive: true }) as string[]).filter(
    (f) => path.basename(f) === name,
  );
  expect(found, `${name} under ${dir}`).toHaveLength(1);
  return path.join(dir, found[0]!);
}
