/**
 * The built renderer runs inside its own Content-Security-Policy (shared/csp.ts) without one
 * violation, in headless Chromium: as the first screen loads, and on the screens whose code loads
 * later (their forms build and run zod schemas). A violation is code that asked for what the
 * policy refuses; each one also costs the page a report. Zod 4 asked once per page whether it may
 * compile code (`new Function`), as the first object schema was built (schemas-without-eval.ts).
 */
import { describe, expect, it } from 'vitest';
import { useJourney } from '../harness';

const j = useJourney('content-security', { service: false });

/** The page's window as the init script below uses it (this project has no DOM types). */
interface PageWindow {
  __violations?: string[];
  addEventListener(
    type: 'securitypolicyviolation',
    listener: (e: {
      violatedDirective: string;
      blockedURI: string;
      sourceFile: string;
      lineNumber: number;
    }) => void,
  ): void;
}

/** What the page reported, recorded from before its first script (an init script runs first). */
async function violations(): Promise<string[]> {
  return j.page.evaluate(() => (globalThis as unknown as PageWindow).__violations ?? []);
}

describe('EO Field Desk under its Content-Security-Policy', () => {
  it('loads the first screen and the later screens with no violation', async () => {
    await j.page.addInitScript(() => {
      const page = globalThis as unknown as PageWindow;
      const seen: string[] = [];
      page.__violations = seen;
      // Reported at the document, and on to its window.
      page.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
      );
    });
    await j.page.goto(j.app.server.openUrl);
    // No service configured: the first run opens the settings.
    await j.page.getByLabel('Service URL').waitFor();
    for (const screen of ['catalog', 'orders', 'aois'] as const) await j.tab(screen);
    await j.page.locator('[data-test="new-aoi"]').click();
    await j.page.locator('[data-test="aoi-satellite"]').fill('sat-aurora-1');
    await j.page.locator('[data-test="queue-aoi"]').click();
    // The form's own check (its zod schema) refused it: the project it needs is named.
    await j.page.locator('[data-test="error-project_id"]').waitFor();
    expect(await violations()).toEqual([]);
  });
});
