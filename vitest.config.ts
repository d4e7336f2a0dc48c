import { defineConfig } from 'vitest/config';

// The whole suite in one run, one summary: every package and app is a project.
export default defineConfig({
  test: {
    // apps/desktop has two more projects: its renderer (happy-dom) and end to end (Chromium).
    projects: [
      'packages/*',
      'apps/*',
      'apps/desktop/vitest.renderer.config.ts',
      'apps/desktop/vitest.e2e.config.ts',
      'tools/*',
    ],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
  },
});
