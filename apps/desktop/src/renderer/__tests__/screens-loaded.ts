/**
 * Renderer test setup: the screens' code and the first screen's lazy parts loaded before each
 * file, as the app has them once its first screen is up (App calls `loadScreens()` and
 * `loadLazyParts()` then), so tests that switch screens or open a tool find them at once.
 * `lazy-screens.spec.ts` and `ui/__tests__/lazy-part.spec.ts` cover the loading itself.
 */
import { createMemoryHistory } from 'vue-router';
import { loadLazyParts } from '../lazy-parts';
import { createAppRouter, loadScreens } from '../router';

await Promise.all([loadScreens(createAppRouter(createMemoryHistory())), loadLazyParts()]);
