/**
 * End to end, issue 16's desktop formats in and out: browser mode (the built renderer in
 * headless Chromium) on a mirror synced from the real reference service. A multi-feature KMZ
 * (two fields and a well, built with @eo/formats' writer) becomes two order items in one step
 * in the order composer; the same KMZ dropped on the catalog map opens the preview there; the
 * catalog's search results are exported, downloaded by the page (browser mode) and read back.
 * Screenshots land in test-output/e2e/field-formats/.
 */
import { square } from '@eo/formats/testing';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogPage, FilePreview, OutboxList } from '../../shared/contract';
import { writeFieldsKmz } from '../field-files';
import { useJourney, WIDE } from '../harness';
import { daysAhead, eventually, queueOrder } from '../page-actions';

const FIELDS = [
  { name: 'Wiese am Bach', ring: square(11.3, 44.45, 0.05) },
  { name: 'Acker Nord', ring: square(11.5, 44.45, 0.05) },
];

const j = useJourney('field-formats', {
  page: { ...WIDE, acceptDownloads: true },
  open: 'synced',
});
let kmz: string;

beforeAll(() => {
  kmz = writeFieldsKmz(j.filesDir, 'felder.kmz', FIELDS, { name: 'Brunnen', at: [11.4, 44.5] });
});

const item = (k: number) => j.page.locator(`[data-test="composer-item-${k}"]`);

describe('EO Field Desk: field files in and out', () => {
  it('a multi-feature KMZ becomes two order items in one step, queued as one order', async () => {
    await j.tab('orders');
    await j.page.locator('[data-test="new-order"]').click();
    await item(0).locator('[data-test="field-project"]').fill('prj-demo-crops');
    await item(0).locator('[data-test="field-start"]').fill(daysAhead(7));
    await item(0).locator('[data-test="field-end"]').fill(daysAhead(37));
    await item(0).locator('[data-test="import-file"]').setInputFiles(kmz);
    const preview = item(0).locator('[data-test="file-import-preview"]');
    await eventually(() => preview.textContent()).toContain(
      'felder.kmz: 3 features (kmz), 2 usable as areas',
    );
    expect(await item(0).locator('[data-test="import-pick-3"]').isDisabled()).toBe(true);
    await j.shot('01-composer-preview');

    await item(0).locator('[data-test="import-items"]').click();
    await eventually(() => j.page.locator('[data-test^="composer-item-"]').count()).toBe(2);
    expect(await item(0).locator('[data-test="field-name"]').inputValue()).toBe(FIELDS[0]!.name);
    expect(await item(1).locator('[data-test="field-name"]').inputValue()).toBe(FIELDS[1]!.name);
    expect(await item(1).locator('[data-test="field-project"]').inputValue()).toBe(
      'prj-demo-crops',
    );
    await j.shot('02-two-items');

    await queueOrder(j.page, 2);
    const orders = (await j.app.call<OutboxList>('outbox.list')).entries.filter(
      (e) => e.kind === 'order',
    );
    expect(orders).toHaveLength(1);
    const items = orders[0]!.input['order_items'] as Array<{
      name: string;
      geometry: { features: Array<{ geometry: unknown }> };
    }>;
    expect(items.map((i) => [i.name, i.geometry.features[0]!.geometry])).toEqual(
      FIELDS.map((f) => [f.name, { type: 'Polygon', coordinates: [f.ring] }]),
    );
  });

  it('the KMZ dropped on the catalog map opens its preview there', async () => {
    await j.tab('catalog');
    const b64 = fs.readFileSync(kmz).toString('base64');
    // A drop as the OS gives it: a DataTransfer holding the file (page code: a string here,
    // this side has no DOM types).
    const transfer = await j.page.evaluateHandle(`(() => {
      const bytes = Uint8Array.from(atob('${b64}'), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'felder.kmz'));
      return dt;
    })()`);
    const map = j.page.locator('.catalog__map');
    await map.dispatchEvent('dragover', { dataTransfer: transfer });
    await map.dispatchEvent('drop', { dataTransfer: transfer });
    const panel = j.page.locator('[data-test="map-drop-panel"]');
    await eventually(() => panel.textContent()).toContain('felder.kmz: 3 features');
    expect(await panel.locator('[data-test="map-import-order"]').textContent()).toContain(
      'New order with 2 items',
    );
    await j.shot('03-map-drop-preview');
    await panel.getByRole('button', { name: 'Close the preview' }).click();
    await eventually(() => panel.count()).toBe(0);
  });

  it('the search results exported as KMZ are downloaded by the page and read back', async () => {
    const total = (await j.app.call<CatalogPage>('catalog.search', { limit: 1 })).total;
    expect(total).toBeGreaterThan(1);
    // The catalog's exports fold behind one "Export…" button (the list keeps its rows).
    await j.page.locator('.catalog [data-test="exports-menu"] summary').click();
    await j.page.locator('[data-test="export-results-format"]').selectOption('kmz');
    const [download] = await Promise.all([
      j.page.waitForEvent('download'),
      j.page.locator('[data-test="export-results-run"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^eo-search-\d{8}-\d{4}\.kmz$/);
    const saved = path.join(j.filesDir, download.suggestedFilename());
    await download.saveAs(saved);
    await eventually(() =>
      j.page.locator('[data-test="export-results-outcome"]').textContent(),
    ).toContain(`Downloaded ${download.suggestedFilename()} (${total} features)`);
    await j.shot('04-exported');

    // Read back as an import would (the backend's @eo/formats readers).
    const back = await j.app.call<FilePreview>('files.preview', {
      name: 'search.kmz',
      base64: fs.readFileSync(saved).toString('base64'),
    });
    expect(back.format).toBe('kmz');
    expect(back.features).toHaveLength(total);
    const records = (await j.app.call<CatalogPage>('catalog.search', { limit: 1000 })).items;
    expect(new Set(back.features.map((f) => f.properties['id']))).toEqual(
      new Set(records.map((r) => r.id)),
    );
  });
});
