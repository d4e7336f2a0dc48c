import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'formats',
    include: ['src/**/__tests__/**/*.spec.ts'],
    testTimeout: 60_000,
  },
});
