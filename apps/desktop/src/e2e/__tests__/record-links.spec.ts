/**
 * Record links in headless Chromium (browser mode): a scene's "Copy link" gives its
 * `eo-field-desk://` link; with the service stopped, the link opened as the page's route shows
 * the scene from the mirror, and a scene this mirror does not hold is said with what to do.
 * Screenshots in test-output/e2e/record-links/.
 */
import { parseRecordLink } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { eventually } from '../page-actions';

const j = useJourney('record-links', {
  page: { ...WIDE, permissions: ['clipboard-read', 'clipboard-write'] },
  open: 'synced',
});
let sceneId: string;
let link: string;

const routeOf = (raw: string) => {
  const read = parseRecordLink(raw);
  if (!read.ok || read.link.kind !== 'scene') throw new Error(`not a scene link: ${raw}`);
  return `#/link/scene/${encodeURIComponent(read.link.id)}`;
};

describe('record links', () => {
  it('copies a scene’s link from its details', async () => {
    await j.tab('catalog');
    const first = j.page.getByRole('listbox', { name: 'Search results' }).getByRole('option');
    await eventually(() => first.first().getAttribute('data-id')).toBeTruthy();
    sceneId = (await first.first().getAttribute('data-id'))!;
    await first.first().click();
    const detail = j.page.locator('[data-test="detail"]');
    await detail.getByRole('button', { name: 'Copy link to this scene' }).click();
    await eventually(() =>
      detail.getByRole('status').filter({ hasText: 'Link copied' }).count(),
    ).toBe(1);
    link = await j.page.evaluate<string>('navigator.clipboard.readText()');
    expect(link).toBe(`eo-field-desk://scene/${encodeURIComponent(sceneId)}`);
    await detail.getByRole('button', { name: 'Close details' }).click();
  });

  it('with the service stopped, opens the link from the mirror; an unknown scene is said', async () => {
    await j.service.close();
    const origin = new URL(j.app.server.openUrl).origin;
    await j.page.goto(`${origin}/${routeOf(link)}`);
    const detail = j.page.locator('[data-test="detail"]');
    await eventually(() => detail.locator('#detail-title').textContent()).toContain(sceneId);
    await eventually(() => j.page.evaluate<string>('location.hash')).toBe('#/catalog');
    await j.shot('01-scene-from-link-offline');

    await j.page.goto(`${origin}/${routeOf('eo-field-desk://scene/S2B_NOT_IN_THIS_MIRROR')}`);
    const notice = j.page.locator('[data-test="link-notice"]');
    await eventually(() => notice.textContent()).toContain(
      'Scene S2B_NOT_IN_THIS_MIRROR is not in this mirror: sync, or open a field package',
    );
    expect(await notice.getAttribute('role')).toBe('alert');
    await j.shot('02-scene-not-in-mirror');
  });
});
