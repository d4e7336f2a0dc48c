/**
 * First start shows previews (issue 15): a fresh app on the demo data (the reference service
 * seeded as `npm start`'s embedded one: 3,000 scenes), imagery `thumbnails`, first sync on
 * connect, in headless Chromium (browser mode). From saving the connection to: the first result
 * row, the first thumbnail shown in the list, and 20 quicklooks drawn on the map. One run (it
 * renders pictures on the service: tens of seconds); a figure to note, no target.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/first-previews.ts [--smoke]
 */
import os from 'node:os';
import {
  closeJourney,
  launchChromium,
  openPage,
  seedService,
  startBrowserApp,
  startReferenceService,
  tempDir,
} from '../src/e2e/harness';
import { ensureRendererBuilt } from '../src/e2e/renderer-build';

const smoke = process.argv.includes('--smoke');
const PICTURES = smoke ? 5 : 20;
const rendererDir = ensureRendererBuilt((line) => console.log(line));
const serviceDir = tempDir('eo-first-previews-service-');
const appDir = tempDir('eo-first-previews-app-');
const service = await startReferenceService({ dataDir: serviceDir });
// 3,000 scenes: the embedded service's demo seed (DEFAULT_SEED_SCENES in packages/reference-service).
const apiKey = seedService(service, { scenes: smoke ? 400 : 3_000 });
const app = await startBrowserApp({
  dataDir: appDir,
  rendererDir,
  imagery: 'thumbnails',
  syncOnFirstConnect: true,
  connectivityIntervalMs: 1_000,
});
const browser = await launchChromium();
try {
  const page = await openPage(browser, { viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(180_000);
  await page.goto(app.server.openUrl);
  await page.getByLabel('Service URL').fill(service.url);
  await page.getByLabel('API key').fill(apiKey);
  const load = os.loadavg()[0]!;
  const t0 = performance.now();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Catalog', exact: true }).click();
  const since = () => ((performance.now() - t0) / 1000).toFixed(1);
  await page.locator('[role="option"][data-id]').first().waitFor();
  const firstRow = since();
  await page.locator('[role="option"] [data-test="thumb"][data-state="shown"]').first().waitFor();
  const firstThumb = since();
  // Text: this side has no DOM types; the page evaluates it.
  await page.waitForFunction(
    `Number(document.querySelector('canvas[data-drawn]')?.getAttribute('data-drawn')) >= ${PICTURES}`,
  );
  const mapPictures = since();
  console.log(
    `first previews (demo data${smoke ? ', smoke' : ''}, load average ${load.toFixed(1)} on ${os.cpus().length} cores): ` +
      `first result row ${firstRow} s, first list thumbnail ${firstThumb} s, ${PICTURES} quicklooks on the map ${mapPictures} s after saving the connection`,
  );
} finally {
  await closeJourney([browser, app, service], [serviceDir, appDir]);
}
