import vue from '@vitejs/plugin-vue';
import { defineProject } from 'vitest/config';
import { basemapData } from './vite/basemap-data.ts';

// Vue components and Pinia stores in happy-dom. Listed by the root vitest.config.ts.
export default defineProject({
  // basemapData: the offline basemap's data as the build makes it (virtual:eo-basemap/*).
  plugins: [vue(), basemapData()],
  test: {
    name: 'desktop-renderer',
    environment: 'happy-dom',
    include: ['src/renderer/**/__tests__/**/*.spec.ts'],
    testTimeout: 30_000,
    // The screens' code loaded, as the app has it after its first screen (src/renderer/router.ts, loadScreens).
    setupFiles: ['src/renderer/__tests__/screens-loaded.ts'],
  },
});
