import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'domain',
    include: ['src/**/__tests__/**/*.spec.ts'],
    // Property tests are CPU-bound (hundreds of runs): on a busy 2-core machine they take
    // several times their idle duration, as in the other packages.
    testTimeout: 60_000,
  },
});
