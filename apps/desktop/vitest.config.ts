import { defineProject } from 'vitest/config';

// The Node side: main, preload (electron mocked), backend, browser mode, shared.
// The renderer (vitest.renderer.config.ts, happy-dom) and the end-to-end tests
// (vitest.e2e.config.ts, Chromium) have their own projects; the root
// vitest.config.ts lists both.
export default defineProject({
  test: {
    name: 'desktop',
    environment: 'node',
    include: [
      'src/{main,preload,backend,browser-mode,shared,areas}/**/__tests__/**/*.spec.ts',
      'vite/**/__tests__/**/*.spec.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
