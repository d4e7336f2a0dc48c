/**
 * How the Chromium that stands in for Electron's window is started, for the e2e tests and the
 * benchmarks: the system's (never a downloaded one), headless, with the switches the app's
 * window runs with (main/chromium-switches.ts). No test runner here: benchmarks import it too.
 */
import { chromiumSwitchArgs } from '../main/chromium-switches';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  ...chromiumSwitchArgs(),
];
