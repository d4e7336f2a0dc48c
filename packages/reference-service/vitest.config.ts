import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reference-service',
    include: ['src/**/__tests__/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
