/**
 * The catalog with the keyboard only (issue 26, defect 8), in headless Chromium against the real
 * reference service with 300 generated records: the results are at most 10 Tabs from the top of
 * the page (the cluster markers were 32 Tab stops: 94 Tabs), and the map is one stop, Enter there
 * zooms in on the cluster nearest the centre.
 */
import { describe, expect, it } from 'vitest';
import { useJourney, WIDE } from '../harness';
import { eventually } from '../page-actions';

const j = useJourney('keyboard', { service: { bulkRecords: 300 }, page: WIDE, open: 'synced' });

/** The most Tabs from the top of the page to the results list. */
const MAX_TABS = 10;

const focused = () =>
  j.page.evaluate<string>(
    `(() => { const a = document.activeElement; return a ? (a.getAttribute('aria-label') || a.textContent || '').trim() : ''; })()`,
  );

describe('the catalog with the keyboard', () => {
  it(`reaches the results in at most ${MAX_TABS} Tabs from the top of the page`, async () => {
    await j.tab('catalog');
    await j.page.getByRole('button', { name: 'Zoom to results' }).click();
    await eventually(() => j.page.locator('.catalog .eo-cluster').count()).toBeGreaterThan(0);
    // From the top of the page, as after loading it.
    await j.page.evaluate(
      `(() => { const top = document.documentElement; top.tabIndex = -1; top.focus(); top.removeAttribute('tabindex'); })()`,
    );
    const path: string[] = [];
    while (path.length < MAX_TABS && (await focused()) !== 'Search results') {
      await j.page.keyboard.press('Tab');
      const name = await focused();
      path.push(name);
      if (name === 'Skip to the results') await j.page.keyboard.press('Enter');
    }
    expect(await focused(), `focus path: ${path.join(' → ')}`).toBe('Search results');
    expect(path.length).toBeLessThanOrEqual(MAX_TABS);
  });

  it('the map is one Tab stop: no cluster takes the focus, Enter on the map zooms in on one', async () => {
    const map = j.page.locator('.catalog .map-frame__map');
    await map.focus();
    await j.page.keyboard.press('Tab');
    expect(
      await j.page.evaluate<boolean>(`document.activeElement.classList.contains('eo-cluster')`),
    ).toBe(false);
    await map.focus();
    const scale = j.page.locator('.catalog .leaflet-control-scale-line');
    const before = await scale.textContent();
    await j.page.keyboard.press('Enter');
    await eventually(() => scale.textContent()).not.toBe(before);
    expect(
      await j.page.evaluate<boolean>(`document.activeElement.classList.contains('map-frame__map')`),
    ).toBe(true);
    await j.shot('map-enter-zoomed');
  });
});
