import { describe, expect, it } from 'vitest';
import { ArchiveScreen, loadScreens, OrdersScreen, SettingsScreen } from '../screens';

describe('screens after the first', () => {
  it('are async components whose code loadScreens() has loaded', async () => {
    await loadScreens();
    for (const screen of [OrdersScreen, SettingsScreen, ArchiveScreen]) {
      const loaded = (screen as { __asyncResolved?: { name?: string; __name?: string } })
        .__asyncResolved;
      expect(loaded).toBeTruthy();
    }
  });
});
