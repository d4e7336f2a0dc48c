/**
 * End to end, issue 16's desktop import: browser mode (the built renderer in headless Chromium,
 * no service: the outbox queues offline) and a KMZ as Google Earth gives it, built here with
 * @eo/formats' writer: two fields and a well (a point). The AOI form's "Import a file…" sends
 * it to the backend, the preview lists the fields and refuses the well, and "Queue 2 AOIs"
 * puts one AOI per field in the outbox, named after it. Screenshots land in
 * test-output/e2e/field-import/.
 */
import { square } from '@eo/formats/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFieldsKmz } from '../field-files';
import { listOutbox, useJourney } from '../harness';
import { eventually } from '../page-actions';

const FIELDS = [
  { name: 'Wiese am Bach', ring: square(14.1, 46.2, 0.01) },
  { name: 'Acker Nord', ring: square(14.3, 46.2, 0.02) },
];

const j = useJourney('field-import', { service: false });
let kmz: string;

beforeAll(() => {
  kmz = writeFieldsKmz(j.filesDir, 'felder.kmz', FIELDS, { name: 'Brunnen', at: [14.2, 46.3] });
});

describe('EO Field Desk: a KMZ becomes AOIs', () => {
  it('previews the KMZ and queues one AOI per field', async () => {
    await j.page.goto(j.app.server.openUrl);
    await j.tab('aois');
    await j.page.locator('[data-test="new-aoi"]').click();
    await j.page.locator('[data-test="aoi-satellite"]').fill('sat-aurora-1');
    await j.page.locator('[data-test="aoi-provider"]').fill('field-team');
    await j.page.locator('[data-test="aoi-project"]').fill('prj-demo-crops');
    await j.page.locator('[data-test="aoi-item-ids"]').fill('scene-1');
    await j.page.locator('[data-test="aoi-import"]').setInputFiles(kmz);

    const preview = j.page.locator('[data-test="file-import-preview"]');
    await eventually(() => preview.textContent()).toContain(
      'felder.kmz: 3 features (kmz), 2 usable as areas',
    );
    expect(await j.page.locator('[data-test="import-feature-3"]').textContent()).toContain(
      'Brunnen',
    );
    expect(await j.page.locator('[data-test="import-pick-3"]').isDisabled()).toBe(true);
    await j.shot('01-preview');

    await j.page.locator('[data-test="import-queue-each"]').click();
    await eventually(() =>
      j.page.locator('[data-test="file-import-done"]').textContent(),
    ).toContain('Queued 2 AOIs (Wiese am Bach, Acker Nord)');
    await j.shot('02-queued');

    const aois = (await listOutbox(j.app)).entries.filter((e) => e.kind === 'aoi');
    expect(aois.map((e) => [e.state, e.input['name'], e.input['geometry']])).toEqual(
      FIELDS.map((f) => ['queued', f.name, { type: 'Polygon', coordinates: [f.ring] }]),
    );
  });
});
