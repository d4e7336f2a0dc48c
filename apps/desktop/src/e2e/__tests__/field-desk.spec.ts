/**
 * End to end, as a field team would use it: browser mode (the built renderer in headless
 * Chromium) against the real reference service. First-run connect, a sync with visible
 * progress, a search that follows the map, the service stopped (same results from the mirror,
 * the indicator says offline), the service restarted on the same port and data (the indicator
 * comes back). Screenshots of every step land in test-output/e2e/field-desk/.
 */
import { describe, expect, it } from 'vitest';
import { useJourney } from '../harness';
import { connect, footprintInk } from '../page-actions';

/** Enough records that the sync takes a few progress events (the pull commits every 5,000). */
const BULK_RECORDS = 12_000;
/** seedDemo's 200 scenes include every 20th as a demo catalog record. */
const TOTAL_RECORDS = BULK_RECORDS + 10;
/** The pull commits every this many records; the gate holds the pages after the first commit. */
const PULL_COMMIT_RECORDS = 5_000;

const j = useJourney('field-desk', {
  service: { bulkRecords: BULK_RECORDS },
  // The app talks to the service through a gate proxy: it holds the catalog pull half-way once.
  // Catalog pages past the first commit wait until the test has seen the partial count: the
  // whole pull is over in a blink here, and its last events may reach the page in one frame.
  gate: (r) => {
    if (r.method !== 'POST' || !r.url.startsWith('/v0/catalogs/search')) return false;
    return ((JSON.parse(r.body) as { offset?: number }).offset ?? 0) >= PULL_COMMIT_RECORDS;
  },
  // Checks every 500 ms so the indicator follows the service within the test's time.
  app: { connectivityIntervalMs: 500 },
});

const indicator = () => j.page.locator('header [data-test="connectivity-label"]');
const total = () => j.page.locator('[data-test="total"]');
const resultIds = async (): Promise<string[]> => {
  const ids = await j.page
    .getByRole('listbox', { name: 'Search results' })
    .getByRole('option')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
  return ids.filter((id) => id !== '');
};

const ink = () => footprintInk(j.page);

describe('EO Field Desk in browser mode against the reference service', () => {
  it('first run: opens the settings, connects with the service URL and API key', async () => {
    await j.page.goto(j.app.server.openUrl);
    await expect
      .poll(() => j.page.getByRole('heading', { name: 'Connection & settings' }).isVisible())
      .toBe(true);
    await expect.poll(() => indicator().textContent()).toBe('Not set up');
    await j.shot('01-first-run');

    await connect(j.page, j.proxy.url, j.apiKey);
    await expect.poll(() => j.page.getByText('Saved.').isVisible()).toBe(true);
    await expect.poll(() => indicator().textContent()).toBe('Online');
    // Write-only: the field is emptied, the page only learns that a key is stored.
    expect(await j.page.getByLabel('API key').inputValue()).toBe('');
    expect(await j.page.locator('[data-test="key-state"]').textContent()).toContain(
      'A key is stored',
    );
    expect(await j.page.content()).not.toContain(j.apiKey);
    await j.shot('02-connected');
  });

  it('syncs with a visible progress bar and shows the counts', async () => {
    await j.page.getByRole('button', { name: 'Sync', exact: true }).click();
    await j.page.getByRole('button', { name: 'Sync now' }).click();
    const progress = j.page.locator('[data-test="progress"]');
    // The catalog pull reports as it reads and waits at the proxy's gate for the pages after its
    // first commit (5,000 records): a partial count stays on screen until the gate opens.
    const partial = progress.getByText(/Catalog records: [\d,.\s]+ of [\d,.\s]+/);
    await partial.waitFor();
    const [seen, of] = /: (.+) of (.+)$/
      .exec((await partial.textContent())!.trim())!
      .slice(1)
      .map((n) => Number(n.replace(/\D/g, '')));
    // A partial count: the pages before the gate, as far as they were reported when read.
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThanOrEqual(PULL_COMMIT_RECORDS);
    expect(of).toBe(TOTAL_RECORDS);
    // The pull goes on to the gate and waits there: the count on screen stays partial.
    await expect.poll(() => j.proxy.held, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await partial.textContent()).toMatch(/Catalog records: [\d,.\s]+ of /);
    expect(await j.page.getByRole('progressbar').count()).toBe(1);
    await j.shot('03-sync-progress');
    j.proxy.release();

    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    const catalogRow = j.page.locator('tr[data-resource="catalogs"]');
    await expect
      .poll(async () => (await catalogRow.locator('td.num').textContent())?.replace(/\D/g, ''))
      .toBe(String(TOTAL_RECORDS));
    expect(await catalogRow.textContent()).not.toContain('Never');
    await j.shot('04-synced');
  });

  let onlineTotal = '';
  let onlineIds: string[] = [];

  it('searches on the map: footprints on the map and rows in the list, following the view', async () => {
    await j.page.getByRole('button', { name: 'Catalog', exact: true }).click();
    await j.page.getByRole('radio', { name: 'The map view (follows the map)' }).check();
    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(async () => (await total().textContent())?.replace(/\D/g, '')).not.toBe('');
    const world = Number((await total().textContent())!.replace(/\D/g, ''));
    expect(world).toBeGreaterThan(0);

    // Zoom in twice with the keyboard: the results follow the map to a smaller area.
    const map = j.page.getByRole('application');
    await map.focus();
    let previous = world;
    for (let step = 0; step < 2; step++) {
      await map.press('+');
      await expect
        .poll(async () => Number((await total().textContent())?.replace(/\D/g, '') ?? NaN), {
          timeout: 10_000,
        })
        .toBeLessThan(previous);
      previous = Number((await total().textContent())!.replace(/\D/g, ''));
    }
    // Let the last debounced search settle, then read what is shown.
    await expect.poll(() => j.page.getByRole('listbox').getAttribute('aria-busy')).toBe('false');
    onlineTotal = (await total().textContent())!.trim();
    expect(Number(onlineTotal.replace(/\D/g, ''))).toBeGreaterThan(0);
    await expect.poll(async () => (await resultIds()).length).toBeGreaterThan(0);
    onlineIds = await resultIds();
    await expect.poll(ink).toBeGreaterThan(0);
    await j.shot('05-search-online');
  });

  it('with the service stopped: the indicator says offline and the same search gives the same results', async () => {
    await j.service.close();
    await expect.poll(() => indicator().textContent(), { timeout: 10_000 }).toBe('Offline');

    await j.page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => j.page.getByRole('listbox').getAttribute('aria-busy')).toBe('false');
    expect((await total().textContent())!.trim()).toBe(onlineTotal);
    // Offline, a note above the list says results come from the mirror: it takes a row's height,
    // so the virtual list may render a row or two fewer. Same order, same records.
    expect(await j.page.locator('[data-test="offline-note"]').textContent()).toContain(
      "results come from this computer's mirror",
    );
    let shown: string[] = [];
    await expect
      .poll(async () => (shown = await resultIds()).length)
      .toBeGreaterThanOrEqual(onlineIds.length - 2);
    expect(shown).toEqual(onlineIds.slice(0, shown.length));
    await expect.poll(ink).toBeGreaterThan(0);
    await j.shot('06-search-offline');
  });

  it('with the service restarted on the same port and data: the indicator comes back', async () => {
    await j.restartService();
    await expect.poll(() => indicator().textContent(), { timeout: 10_000 }).toBe('Online');
    await j.page.getByRole('button', { name: 'Sync', exact: true }).click();
    await expect
      .poll(() => j.page.locator('.sync [data-test="connectivity-label"]').textContent())
      .toBe('Online');
    await j.shot('07-back-online');
  });
});
