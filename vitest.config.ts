import { defineConfig } from 'vitest/config';

// The whole suite in one run, one summary: every package and app is a project.
export default defineConfig({
  test: {
    // apps/desktop has a second project for its renderer (happy-dom).
    projects: ['packages/*', 'apps/*', 'apps/desktop/vitest.renderer.config.ts', 'tools/*'],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
  },
});
