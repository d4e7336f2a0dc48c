import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sync',
    include: ['src/**/__tests__/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
