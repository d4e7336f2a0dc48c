import { describe, expect, it } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import { createAppRouter, isScreen, screenLocation, SCREENS } from '../router';

describe('the app router', () => {
  it('gives every screen its address and sends anything else to the catalog', async () => {
    const router = createAppRouter(createMemoryHistory());
    for (const s of SCREENS) {
      await router.push(screenLocation(s.id));
      expect(router.currentRoute.value.name).toBe(s.id);
    }
    await router.push('/no-such-screen/deep');
    expect(router.currentRoute.value.fullPath).toBe('/catalog');
  });

  it('addresses the edit of a queued entry on its screen', async () => {
    const router = createAppRouter(createMemoryHistory());
    await router.push(screenLocation('jobs', 'e1-abc'));
    expect(router.currentRoute.value.fullPath).toBe('/jobs?edit=e1-abc');
    expect(router.currentRoute.value.name).toBe('jobs');
  });

  it('knows its screens', () => {
    expect(isScreen('outbox')).toBe(true);
    expect(isScreen('backend')).toBe(false);
    expect(isScreen(undefined)).toBe(false);
  });
});
