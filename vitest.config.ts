import { defineConfig } from 'vitest/config';

// The whole suite in one run, one summary: every package and app is a project.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tools/*'],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
  },
});
