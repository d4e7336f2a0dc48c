/**
 * Forms that know the ids (issue 17, items 12 and 13), in headless Chromium against the real
 * reference service: on a fresh install, after the first sync (started by itself on the first
 * connection), the composer's Project field offers the demo's projects by name and id (and no
 * use-case values), and the index editor accepts B05 for sat-aurora-1: the service's Aurora has
 * it, although no mirrored index uses it. Screenshots in test-output/e2e/form-ids/.
 */
import { describe, expect, it } from 'vitest';
import { DEMO } from '@eo/fixtures';
import { USECASES } from '@eo/domain';
import { useJourney, WIDE } from '../harness';
import { eventually } from '../page-actions';

const j = useJourney('form-ids', {
  app: { syncOnFirstConnect: true },
  page: WIDE,
  open: 'connected',
});

/** The options of the datalist an input points at: value and the label shown. */
async function choicesOf(input: string): Promise<Array<{ value: string; label: string }>> {
  const listId = await j.page.locator(input).getAttribute('list');
  expect(listId, `${input} has a list of choices`).toBeTruthy();
  return j.page.locator(`datalist[id="${listId}"] option`).evaluateAll((os) =>
    os.map((o) => ({
      value: o.getAttribute('value') ?? '',
      label: o.getAttribute('label') ?? '',
    })),
  );
}

describe('forms that know the ids, on a fresh install', () => {
  it('the first sync (by itself) brings the lists: the composer offers the demo projects', async () => {
    // The first connection syncs a never-synced mirror by itself: wait for it to complete.
    await eventually(async () => {
      const r = await j.app.backend.dispatch('sync.status', undefined);
      const s = r.ok
        ? (r.value as { running: boolean; resources: Array<{ lastCompleteAt: unknown }> })
        : null;
      return (
        s !== null &&
        !s.running &&
        s.resources.length > 0 &&
        s.resources.every((x) => x.lastCompleteAt !== null)
      );
    }, 30_000).toBe(true);

    await j.tab('orders');
    await j.page.locator('[data-test="new-order"]').click();
    const project = '[data-test="composer-item-0"] [data-test="field-project"]';
    await eventually(() => choicesOf(project)).toEqual(
      DEMO.projects.map((p) => ({ value: p.id, label: `${p.name} (${p.id})` })),
    );
    const values = (await choicesOf(project)).map((c) => c.value);
    expect(values.filter((v) => (USECASES as readonly string[]).includes(v))).toEqual([]);
    await j.page.locator(project).fill(DEMO.projects[0].id);
    await eventually(() =>
      j.page.locator('[data-test$="projects-chosen"]').first().textContent(),
    ).toBe(DEMO.projects[0].name);
    await j.shot('01-composer-project-choices');
  });

  it('the index editor accepts B05 for sat-aurora-1 (the service lists it) and queues the index', async () => {
    await j.tab('indices');
    const form = j.page.locator('[data-test="index-form"]');
    await form.locator('[name="name"]').fill('Red-edge NDVI');
    await form.locator('[name="description"]').fill('NDVI with the red-edge band');
    await form.locator('[name="satellite_id"]').fill('sat-aurora-1');
    const satellites = await choicesOf('[name="satellite_id"]');
    expect(satellites.find((s) => s.value === 'sat-aurora-1')?.label).toContain('B05');
    await form.locator('[name="expression"]').fill('(B08 - B05) / (B08 + B05)');
    await form.locator('[name="rescale"]').fill('-1, 1');
    await form.locator('[name="colormap"]').fill('RdYlGn');
    await eventually(() => form.locator('[data-test="expression-bands"]').textContent()).toContain(
      'The satellite has',
    );
    expect(await form.locator('[data-test="expression-error"]').textContent()).toBe('');
    expect(await form.locator('[data-test="expression-bands"]').textContent()).not.toContain(
      'unknown',
    );
    await j.shot('02-index-editor-b05');
    await form.locator('[data-test="queue-index"]').click();
    await eventually(() => form.locator('[data-test="form-done"]').textContent()).toContain(
      'Red-edge NDVI',
    );
  });
});
