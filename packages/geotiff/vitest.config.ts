import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'geotiff',
    include: ['src/**/__tests__/**/*.spec.ts'],
    // GDAL judges our files in child processes: slow on a busy 2-core machine.
    testTimeout: 60_000,
  },
});
