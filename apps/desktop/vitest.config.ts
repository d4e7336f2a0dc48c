import { defineProject } from 'vitest/config';

// The Node side: main, preload (electron mocked), backend, browser mode, shared, e2e.
// The renderer has its own project (vitest.renderer.config.ts, happy-dom); the root
// vitest.config.ts lists both.
export default defineProject({
  test: {
    name: 'desktop',
    environment: 'node',
    include: ['src/{main,preload,backend,browser-mode,shared,e2e}/**/__tests__/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
