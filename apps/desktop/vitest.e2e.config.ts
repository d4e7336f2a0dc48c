import { defineProject } from 'vitest/config';

// End to end: browser mode in headless Chromium against the real reference service. Its own
// project (one browser per file); the global setup builds the renderer unless out/ is fresh.
export default defineProject({
  test: {
    name: 'desktop-e2e',
    environment: 'node',
    include: ['src/e2e/**/__tests__/**/*.spec.ts'],
    globalSetup: ['src/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
