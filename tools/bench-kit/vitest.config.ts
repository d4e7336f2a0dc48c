import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'bench-kit', include: ['src/**/__tests__/**/*.spec.ts'], testTimeout: 60_000 },
});
