import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'catalog-store',
    include: ['src/**/__tests__/**/*.spec.ts'],
  },
});
