/**
 * Real pixels offline on the desktop map (issue 24), in headless Chromium with the service
 * stopped: a site's window in the stored format (a 10 km, 10 m, four-band window in UTM 32N
 * with a lake, a field and bare soil) opened from "Offline imagery", drawn in its place (every
 * checked screen point, read back through the map's own pointer coordinates, shows the cover
 * the window has at that ground point), in false colour, true colour and NDVI with its legend,
 * and the pixel inspector's values equal to what GDAL reads at the same point, there and at the
 * device's position ("At my position"). The window and NDVI exported as GeoTIFFs (browser mode's
 * downloads): GDAL reads in them the inspector's values at its point. A second date of the
 * site: the date slider and the compare swipe at full resolution (each date's pane clipped to
 * its side of the divider). axe over the panel and the divider, light and dark. Screenshots in test-output/e2e/offline-pixels/.
 */
import { gdalInfo, gdalLocationValues } from '@eo/geotiff/testing';
import { lonLatToMap } from '@eo/geotiff';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  windowSource,
  writeSiteWindow,
  type SiteWindow,
} from '../../backend/__tests__/site-window';
import { runAxe } from '../a11y-checks';
import { useJourney, WIDE } from '../harness';
import { eventually } from '../page-actions';

const source = windowSource();
const j = useJourney('offline-pixels', {
  app: { offlineRasters: source },
  page: WIDE,
  open: 'connected',
});
let site: SiteWindow;

beforeAll(async () => {
  site = await writeSiteWindow(path.join(j.filesDir, 'site.tif'));
  source.add('site-1', site, '10 km at Lake Field');
});

/** The RGBA of the raster layer's tile canvas under a page point, or null where none is. */
const RASTER_RGBA = new Function(
  'p',
  `
  for (const c of document.querySelectorAll('.eo-raster-layer canvas')) {
    // Only tiles on screen: Leaflet shows a tile once it is ready (hidden before), faded in.
    const css = getComputedStyle(c);
    if (css.visibility !== 'visible' || Number(css.opacity) < 0.99) continue;
    const r = c.getBoundingClientRect();
    if (p.x < r.left || p.x >= r.right || p.y < r.top || p.y >= r.bottom) continue;
    const x = Math.floor((p.x - r.left) * (c.width / r.width));
    const y = Math.floor((p.y - r.top) * (c.height / r.height));
    return Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data);
  }
  return null;
`,
) as (p: { x: number; y: number }) => number[] | null;

/** The ground under a page point, as the map itself says (its pointer position, 6 digits). */
async function groundAt(x: number, y: number): Promise<[number, number]> {
  await j.page.mouse.move(x, y);
  const text = await j.page.locator('[data-test="cursor-position"]').textContent();
  const [lat, lon] = text!.split(',').map(Number) as [number, number];
  return [lon, lat];
}

/** The window's full-resolution pixel under a lon/lat, or null outside. */
function pixelOf(lon: number, lat: number): [number, number] | null {
  const [x, y] = lonLatToMap(site.epsg, lon, lat);
  const col = Math.floor((x - site.geoTransform[0]) / site.geoTransform[1]);
  const row = Math.floor((y - site.geoTransform[3]) / site.geoTransform[5]);
  return col >= 0 && row >= 0 && col < site.width && row < site.height ? [col, row] : null;
}

/** Whether a page point is on the map itself (not under a control or the panel). */
function onMapItself(x: number, y: number): Promise<boolean> {
  return j.page.evaluate(`(() => {
    const el = document.elementFromPoint(${x}, ${y});
    return Boolean(el && el.closest('.leaflet-container') && !el.closest('.leaflet-control-container'));
  })()`);
}

/** Waits until every tile of the raster layer is painted with its latest style. */
async function painted(): Promise<void> {
  await eventually(
    () =>
      j.page.evaluate(`(() => {
        const layer = document.querySelector('.eo-raster-layer');
        if (!layer) return false;
        const want = layer.getAttribute('data-style') || '0';
        const tiles = [...layer.querySelectorAll('canvas')];
        return tiles.length > 0 && tiles.every((c) => c.dataset.painted === want &&
          c.classList.contains('leaflet-tile-loaded') && getComputedStyle(c).opacity === '1');
      })()`),
    30_000,
  ).toBe(true);
}

/** Screen points on a grid over the map, each with the cover under it (boundaries left out). */
async function coverSamples(): Promise<{ x: number; y: number; cover: string }[]> {
  const box = (await j.page.locator('.catalog .map-frame__map').boundingBox())!;
  const out: { x: number; y: number; cover: string }[] = [];
  for (let gy = 1; gy < 8; gy++)
    for (let gx = 1; gx < 8; gx++) {
      const x = Math.round(box.x + (box.width * gx) / 8);
      const y = Math.round(box.y + (box.height * gy) / 8);
      if (!(await onMapItself(x, y))) continue;
      const [lon, lat] = await groundAt(x, y);
      const px = pixelOf(lon, lat);
      if (!px) continue;
      // Only points whose neighbours (3 pixels around) share their cover.
      const covers = new Set(
        [-3, 0, 3].flatMap((dx) =>
          [-3, 0, 3].map((dy) =>
            site.coverAt(
              Math.min(site.width - 1, Math.max(0, px[0] + dx)),
              Math.min(site.height - 1, Math.max(0, px[1] + dy)),
            ),
          ),
        ),
      );
      if (covers.size === 1) out.push({ x, y, cover: [...covers][0]! });
    }
  return out;
}

describe('offline pixels in Chromium, the service stopped', () => {
  it('opens the site from "Offline imagery" and draws it in its place', async () => {
    await j.service.close();
    await j.tab('catalog');
    const toggle = j.page.locator('[data-test="offline-imagery-toggle"]');
    await toggle.click();
    await eventually(() => toggle.textContent()).toMatch(/\(1\)/);
    const problems: string[] = [];
    j.page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    j.page.on('pageerror', (e) => problems.push(e.message));
    await j.page.locator('[data-test="offline-raster-select"]').selectOption('site-1');
    const opened = j.page.locator(
      '[data-test="raster-combination"], [data-test="offline-raster-error"]',
    );
    await opened.first().waitFor({ timeout: 30_000 });
    expect(
      await j.page.locator('[data-test="offline-raster-error"]').count(),
      `${await opened.first().textContent()} ${problems.join(' | ')}`,
    ).toBe(0);
    await j.page.locator('[data-test="raster-combination"]').selectOption('false-colour');
    await painted();
    await j.shot('01-false-colour');
    const samples = await coverSamples();
    const kinds = new Set(samples.map((s) => s.cover));
    expect(kinds.size, JSON.stringify(samples)).toBeGreaterThanOrEqual(2);
    for (const s of samples) {
      const rgba = await j.page.evaluate(RASTER_RGBA, { x: s.x, y: s.y });
      expect(rgba, `${s.cover} at ${s.x},${s.y}`).not.toBe(null);
      const [r, g] = rgba!;
      if (s.cover === 'vegetation')
        expect(r! - g!, `vegetation at ${s.x},${s.y}`).toBeGreaterThan(80);
      if (s.cover === 'water') expect(r!, `water at ${s.x},${s.y}`).toBeLessThan(60);
      if (s.cover === 'soil') expect(Math.abs(r! - g!), `soil at ${s.x},${s.y}`).toBeLessThan(120);
    }
  });

  it('true colour and NDVI differ over vegetation and water; the legend shows', async () => {
    const samples = await coverSamples();
    const at = (cover: string) => samples.find((s) => s.cover === cover);
    const veg = at('vegetation') ?? at('soil')!;
    const falseRgba = (await j.page.evaluate(RASTER_RGBA, veg))!;
    await j.page.locator('[data-test="raster-combination"]').selectOption('true-colour');
    await painted();
    const trueRgba = (await j.page.evaluate(RASTER_RGBA, veg))!;
    expect(trueRgba).not.toEqual(falseRgba);
    await j.shot('02-true-colour');

    await j.page.locator('[data-test="raster-mode-index"]').check();
    await painted();
    await expect.poll(() => j.page.locator('[data-test="raster-legend"]').isVisible()).toBe(true);
    expect(await j.page.locator('[data-test="raster-legend"]').textContent()).toMatch(/NDVI/);
    for (const s of samples) {
      const [r, g] = (await j.page.evaluate(RASTER_RGBA, s))!;
      // RdYlGn from -1 to 1: vegetation (NDVI ~0.8) green, water (NDVI ~ -0.3) red-orange.
      if (s.cover === 'vegetation') expect(g!, 'vegetation').toBeGreaterThan(r!);
      if (s.cover === 'water') expect(r!, 'water').toBeGreaterThan(g!);
    }
    await j.shot('03-ndvi-legend');
  });

  it('the pixel inspector reads what GDAL reads at the clicked point', async () => {
    const samples = await coverSamples();
    const s = samples.find((p) => p.cover === 'vegetation') ?? samples[0]!;
    await j.page.locator('[data-test="inspect-on-click"]').check();
    const [lon, lat] = await groundAt(s.x, s.y);
    await j.page.mouse.click(s.x, s.y);
    const reading = j.page.locator('[data-test="pixel-reading"]');
    await reading.waitFor();
    const [x, y] = lonLatToMap(site.epsg, lon, lat);
    const [gdal] = await gdalLocationValues(site.file, [[x, y]]);
    // The inspector's point is the click's (the pointer's 6-digit position is the same point).
    const names = ['B02', 'B03', 'B04', 'B08'];
    for (let b = 0; b < 4; b++)
      await eventually(() =>
        j.page.locator(`[data-test="pixel-band-${names[b]}"] td`).first().textContent(),
      ).toBe(String(gdal![b]));
    const [, , red, nir] = gdal!;
    const ndvi = (nir! - red!) / (nir! + red!);
    const shown = Number(await j.page.locator('[data-test="pixel-index"]').textContent());
    expect(Math.abs(shown - ndvi)).toBeLessThan(0.0006);
    expect(await j.page.locator('[data-test="pixel-utm"]').textContent()).toMatch(/UTM 32N/);
    await j.shot('04-inspector');
  });

  it("exports the window and NDVI: GDAL reads the inspector's values at its point", async () => {
    const bands = ['B02', 'B03', 'B04', 'B08'];
    const shown = await Promise.all(
      bands.map(async (b) =>
        Number(await j.page.locator(`[data-test="pixel-band-${b}"] td`).first().textContent()),
      ),
    );
    const shownNdvi = Number(await j.page.locator('[data-test="pixel-index"]').textContent());
    const utm = (await j.page.locator('[data-test="pixel-utm"]').textContent())!;
    // The pixel's centre as the inspector says it (0.1 m): the same pixel in the exported files.
    const [x, y] = utm
      .match(/[\d.]+/g)!
      .slice(0, 2)
      .map(Number) as [number, number];
    const saved: Record<string, string> = {};
    for (const what of ['window', 'index'] as const) {
      const [download] = await Promise.all([
        j.page.waitForEvent('download'),
        j.page.locator(`[data-test="raster-export-${what}"]`).click(),
      ]);
      saved[what] = path.join(j.filesDir, download.suggestedFilename());
      await download.saveAs(saved[what]);
      await eventually(() =>
        j.page.locator('[data-test="raster-export-outcome"]').textContent(),
      ).toContain(`Downloaded ${download.suggestedFilename()}`);
    }
    expect(path.basename(saved.window!)).toBe('10-km-at-lake-field-2024-06-12.tif');
    expect(path.basename(saved.index!)).toBe('10-km-at-lake-field-2024-06-12-ndvi.tif');
    await j.shot('05-exported');
    const [inWindow] = await gdalLocationValues(saved.window!, [[x, y]]);
    expect(inWindow).toEqual(shown);
    const [[inIndex]] = (await gdalLocationValues(saved.index!, [[x, y]])) as [[number]];
    expect(inIndex.toFixed(3)).toBe(shownNdvi.toFixed(3));
    const info = await gdalInfo(saved.index!);
    expect(info.bands[0]).toMatchObject({ type: 'Float32', description: 'NDVI' });
    expect(info.geoTransform).toEqual([...site.geoTransform]);
  });

  it('"At my position" reads the pixel under the device, or says it is outside', async () => {
    const [lon, lat] = site.lonLatOf(...site.places.water);
    const context = j.page.context();
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: lat, longitude: lon, accuracy: 15 });
    await j.page.locator('[data-test="inspect-position"]').focus();
    await j.page.keyboard.press('Enter');
    await eventually(() => j.page.locator('[data-test="pixel-accuracy"]').textContent()).toBe(
      'yours, ±15 m (about 2 px)',
    );
    const [gdal] = await gdalLocationValues(site.file, [lonLatToMap(site.epsg, lon, lat)]);
    expect(gdal).toEqual(site.valuesAt(...site.places.water));
    for (const [b, name] of ['B02', 'B03', 'B04', 'B08'].entries())
      await eventually(() =>
        j.page.locator(`[data-test="pixel-band-${name}"] td`).first().textContent(),
      ).toBe(String(gdal![b]));
    await j.shot('06-at-my-position');

    // Geneva, 50 km from the site.
    await context.setGeolocation({ latitude: 46.2044, longitude: 6.1432, accuracy: 15 });
    await j.page.locator('[data-test="inspect-position"]').click();
    await eventually(() => j.page.locator('[data-test="inspect-outside"]').textContent()).toMatch(
      /^Your position \(46\.20440, 6\.14320\) is outside this raster: it covers 10 km at Lake Field\.$/,
    );
    await j.shot('07-position-outside');
  });

  it('a second date of the site: the date slider, and the compare swipe at full resolution', async () => {
    const july = await writeSiteWindow(path.join(j.filesDir, 'site-july.tif'), {
      datetime: '2024-07-20T10:30:00Z',
      sceneId: 'aurora-1-20240720-site',
      seed: 7,
    });
    source.add('site-2', july, '10 km at Lake Field');
    const toggle = j.page.locator('[data-test="offline-imagery-toggle"]');
    await toggle.click();
    await toggle.click();
    await eventually(() => toggle.textContent()).toMatch(/\(2\)/);
    const slider = j.page.locator('[data-test="site-date-slider"]');
    await slider.waitFor({ timeout: 30_000 });
    expect(await slider.getAttribute('aria-valuetext')).toBe('2024-06-12, 1 of 2');
    await slider.focus();
    await j.page.keyboard.press('ArrowRight');
    await eventually(() => j.page.locator('[data-test="site-date"]').textContent()).toBe(
      '2024-07-20',
    );
    await painted();
    await j.page.keyboard.press('ArrowLeft');
    await eventually(() => j.page.locator('[data-test="site-date"]').textContent()).toBe(
      '2024-06-12',
    );
    await j.page.locator('[data-test="site-compare"]').selectOption('site-2');
    const handle = j.page.locator('[data-test="compare-handle"]');
    await handle.waitFor({ timeout: 30_000 });
    expect(await handle.getAttribute('aria-label')).toBe(
      'Divider: 2024-06-12 left, 2024-07-20 right',
    );
    // Both dates painted, each pane clipped at the divider (the middle of the map).
    await eventually(
      () =>
        j.page.evaluate(`(() => {
          const layers = [...document.querySelectorAll('.eo-raster-layer')];
          return layers.length === 2 && layers.every((l) => {
            const tiles = [...l.querySelectorAll('canvas')];
            return tiles.length > 0 && tiles.every((c) => c.dataset.painted !== undefined);
          });
        })()`),
      30_000,
    ).toBe(true);
    const clips = () =>
      j.page.evaluate(`(() => ['eo-rasters', 'eo-rasters-compare'].map((p) =>
        document.querySelector('.leaflet-' + p + '-pane').style.clipPath))()`) as Promise<string[]>;
    const [a, b] = await clips();
    const x = Number(/polygon\(\S+ \S+, (-?[\d.]+)px/.exec(a!)![1]);
    expect(b).toContain(`polygon(${x}px`);
    await j.shot('08-compare-dates');
    await handle.focus();
    await j.page.keyboard.press('Home');
    await eventually(() => handle.getAttribute('aria-valuenow')).toBe('0');
    const [a0] = await clips();
    expect(Number(/polygon\(\S+ \S+, (-?[\d.]+)px/.exec(a0!)![1])).toBeLessThan(x);
    await j.page.keyboard.press('End');
    await eventually(() => handle.getAttribute('aria-valuenow')).toBe('100');
    await j.page.keyboard.press('PageDown');
    await j.shot('09-compare-moved');
  });

  it('axe-core finds no serious or critical violation with the panel open', async () => {
    await j.page.evaluate(
      fs.readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8'),
    );
    for (const scheme of ['light', 'dark'] as const) {
      await j.page.emulateMedia({ colorScheme: scheme });
      expect(await runAxe(j.page), scheme).toEqual([]);
    }
    await j.page.emulateMedia({ colorScheme: 'light' });
  });

  it('the Sync screen and Settings list the site with its bytes and the imagery budget; axe clean', async () => {
    for (const [screen, title] of [
      ['sync', 'Sync'],
      ['settings', 'Connection & settings'],
    ] as const) {
      await j.tab(screen);
      await j.page.getByRole('heading', { name: title, exact: true, level: 1 }).waitFor();
      const row = j.page.locator('[data-test="offline-raster-site-1"]');
      await row.waitFor();
      expect(await row.textContent()).toContain('10 km at Lake Field');
      expect(await row.locator('[data-test="offline-raster-state"]').textContent()).toBe('Stored');
      expect(await j.page.locator('[data-test="imagery-budget"]').textContent()).toMatch(
        /Imagery budget: .* of .* used/,
      );
      await j.shot(`05-${screen}-offline-rasters`);
      for (const scheme of ['light', 'dark'] as const) {
        await j.page.emulateMedia({ colorScheme: scheme });
        expect(await runAxe(j.page), `${screen} ${scheme}`).toEqual([]);
      }
      await j.page.emulateMedia({ colorScheme: 'light' });
    }
  });
});
