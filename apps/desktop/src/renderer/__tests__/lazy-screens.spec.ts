import { describe, expect, it } from 'vitest';
import { createMemoryHistory } from 'vue-router';
import { createAppRouter, loadScreens, SCREENS } from '../router';

describe('the screens after the first', () => {
  it('are loaded by their routes, and loadScreens() loads each once', async () => {
    const router = createAppRouter(createMemoryHistory());
    const component = (id: string) => router.resolve({ name: id }).matched[0]?.components?.default;
    const lazy = SCREENS.filter((s) => typeof s.component === 'function').map((s) => s.id);
    expect(lazy).toHaveLength(SCREENS.length - 1);
    expect(lazy).not.toContain('catalog');
    for (const id of lazy) expect(typeof component(id)).toBe('function');

    await loadScreens(router);
    for (const id of lazy) {
      const loaded = component(id);
      expect(typeof loaded, id).toBe('object');
      expect((loaded as { __name?: string }).__name).toMatch(/Screen$/);
    }
    const settings = component('settings');
    await loadScreens(router);
    expect(component('settings')).toBe(settings);
  });

  it('mount at the route without waiting once loaded', async () => {
    const router = createAppRouter(createMemoryHistory());
    await loadScreens(router);
    await router.push({ name: 'orders' });
    expect(router.currentRoute.value.matched[0]?.components?.default).toMatchObject({
      __name: 'OrdersScreen',
    });
  });
});
