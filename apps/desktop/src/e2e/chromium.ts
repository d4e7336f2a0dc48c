/**
 * How the Chromium that stands in for Electron's window is started, for the e2e tests and the
 * benchmarks: the system's (never a downloaded one), headless, with the switches the app's
 * window runs with (main/chromium-switches.ts). No test runner here: benchmarks import it too.
 */
import { chromiumSwitchArgs } from '../main/chromium-switches';

export const CHROMIUM = '/usr/bin/chromium';

/** The benchmarks' Chromium: `CHROMIUM_PATH` when set (another build to compare), else the system's. */
export const BENCH_CHROMIUM = process.env.CHROMIUM_PATH ?? CHROMIUM;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  ...chromiumSwitchArgs(),
];
