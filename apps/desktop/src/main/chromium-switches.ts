/**
 * The Chromium switches the app's window runs with: Electron main appends them before the app
 * is ready (index.ts), and the headless Chromium that stands in for the window (the e2e tests,
 * bench/devtools-window.ts) is started with the same ones. Plain data: no Electron here.
 */

/** Switch name (no dashes) and value, in the order they are appended. */
export type ChromiumSwitch = readonly [name: string, value: string];

export const CHROMIUM_SWITCHES: readonly ChromiumSwitch[] = [
  // The page's module scripts from their code cache. Chromium's background script response
  // processor (a part of BackgroundResourceFetch, on by default) hands a module script's source
  // to a background parse without looking for the compiled code its earlier runs stored: the
  // first screen's 540 KB entry was parsed anew at every launch, 50 to 90 ms on this machine's
  // two cores before it could run, and every function it ran was compiled again. With the
  // processor off for scripts (the rest of BackgroundResourceFetch stays on) the code cache is
  // consumed in 4 to 8 ms (docs/cold-start.md; the e2e spec script-code-cache checks it).
  ['enable-features', 'BackgroundResourceFetch:background-script-response-processor/false'],
];

/** The switches as command-line arguments (`--name=value`), for a Chromium started by hand. */
export function chromiumSwitchArgs(): string[] {
  return CHROMIUM_SWITCHES.map(([name, value]) => `--${name}=${value}`);
}
