/**
 * New AOIs followed to their end (issue 17, item 4), in headless Chromium against the real
 * reference service, whose worker the test runs: two AOIs created in the app and sent with
 * "Submit all" show "Started" at first; once the service has processed them, the AOIs screen
 * shows one "Success" and one "Failed" at 100 % without anyone syncing or refreshing, and the
 * failed one says why in the service's words. Screenshots in test-output/e2e/aoi-follow/.
 */
import type { Polygon } from '@eo/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeGeoJson } from '../field-files';
import { insideOf } from '../footprints';
import { useJourney, WIDE } from '../harness';
import { eventually, fillAoiForm, queueAoi } from '../page-actions';

const SATELLITE = 'sat-aurora-1';
const PROJECT = 'prj-demo-crops';

const j = useJourney('aoi-follow', { page: WIDE, open: 'connected' });
/** An aurora-1 scene and its footprint, and another one far from it. */
let scene: { id: string; footprint: Polygon };
let farSceneId: string;

beforeAll(() => {
  const rows = j.service.server.app.ctx.sqlite
    .prepare('SELECT id, feature_json AS feature FROM archive_scenes WHERE satellite_id = ?')
    .all(SATELLITE) as Array<{ id: string; feature: string }>;
  const scenes = rows.map((r) => ({
    id: r.id,
    footprint: (JSON.parse(r.feature) as { geometry: Polygon }).geometry,
  }));
  scene = scenes[0]!;
  const [x, y] = scene.footprint.coordinates[0]![0]! as [number, number];
  farSceneId = scenes.find((s) =>
    s.footprint.coordinates[0]!.every(([lon, lat]) => Math.abs(lon! - x) + Math.abs(lat! - y) > 5),
  )!.id;
});

async function createAoi(name: string, sceneId: string): Promise<void> {
  // The form stays open after queueing, empty, for the next AOI.
  if ((await j.page.locator('[data-test="aoi-name"]').count()) === 0) {
    await j.page.locator('[data-test="new-aoi"]').click();
  }
  await fillAoiForm(j.page, {
    name,
    satelliteId: SATELLITE,
    provider: 'field-team',
    projectId: PROJECT,
    areaFile: writeGeoJson(j.filesDir, `${name}.geojson`, insideOf(scene.footprint)),
    sceneId,
  });
  await queueAoi(j.page, name);
}

const row = (name: string) => j.page.locator('[data-test^="aoi-row-"]', { hasText: name });

describe('AOIs followed to the end in Chromium', () => {
  it('two AOIs created and sent start at 0 %', async () => {
    await eventually(() =>
      j.page.locator('header [data-test="connectivity-label"]').textContent(),
    ).toBe('Online');
    await j.tab('aois');
    await createAoi('Good field', scene.id);
    await createAoi('Far field', farSceneId);
    await j.tab('outbox');
    await j.page.locator('[data-test="submit-all"]').click();
    await eventually(() =>
      j.page.locator('[data-test="batch-notification"]').textContent(),
    ).toContain('2 created');
    await j.tab('aois');
    await eventually(() => row('Far field').textContent()).toContain('Started');
    await j.shot('01-started');
  });

  it('the service finishes them: the screen follows, with the reason of the failure, no sync', async () => {
    j.service.server.app.ctx.worker.drain();
    await eventually(() => row('Far field').textContent(), 20_000).toContain('Failed');
    await eventually(() => row('Good field').textContent(), 20_000).toContain('Success');
    expect(
      await row('Far field').locator('[role="progressbar"]').getAttribute('aria-valuenow'),
    ).toBe('100');
    await row('Far field').click();
    await eventually(() => j.page.locator('[data-test="aoi-failure-reason"]').textContent()).toBe(
      `Scene ${farSceneId} does not intersect the AOI`,
    );
    await j.shot('02-failed-with-reason');
    // Followed, not synced: the mirror was never synced.
    const status = await j.app.backend.dispatch('sync.status', undefined);
    expect(status.ok && (status.value as { resources: unknown[] }).resources).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ lastCompleteAt: expect.any(String) })]),
    );
  });
});
