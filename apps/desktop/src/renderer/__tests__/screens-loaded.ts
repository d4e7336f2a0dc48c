/**
 * Renderer test setup: the screens' code loaded before each file, as the app has it once its
 * first screen is up (App calls `loadScreens()` then), so tests that switch screens find them
 * mounted at once. `lazy-screens.spec.ts` covers the loading itself.
 */
import { loadScreens } from '../screens';

await loadScreens();
