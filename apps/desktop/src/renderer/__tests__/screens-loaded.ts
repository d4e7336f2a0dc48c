/**
 * Renderer test setup: the screens' code and the first screen's lazy parts loaded before each
 * file, as the app has them once its first screen is up (App calls `loadScreens()` and
 * `loadLazyParts()` then), so tests that switch screens or open a tool find them mounted at
 * once. `lazy-screens.spec.ts` and `ui/__tests__/lazy-part.spec.ts` cover the loading itself.
 */
import { loadLazyParts } from '../lazy-parts';
import { loadScreens } from '../screens';

await Promise.all([loadScreens(), loadLazyParts()]);
