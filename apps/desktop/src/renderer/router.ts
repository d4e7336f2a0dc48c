/**
 * Navigation a person can read: every screen has an address (`#/orders`, `#/outbox`), and
 * editing a queued entry is one too (`#/jobs?edit=<entryId>`: the screen of the entry's kind,
 * its form filled from the entry). Hash history: the page is a file:// in Electron and one
 * static page in browser mode, so the path must stay in the fragment. (Browser mode's token
 * also arrives in the fragment; `bridge.ts` stores it and takes it out before the router
 * starts.)
 */
import {
  createRouter,
  createWebHashHistory,
  type LocationQueryRaw,
  type Router,
  type RouterHistory,
} from 'vue-router';

export const SCREENS = [
  { id: 'catalog', label: 'Catalog' },
  { id: 'orders', label: 'Orders' },
  { id: 'aois', label: 'AOIs' },
  { id: 'archive', label: 'Archive' },
  { id: 'indices', label: 'Indices' },
  { id: 'deliveries', label: 'Deliveries' },
  { id: 'jobs', label: 'Jobs' },
  { id: 'outbox', label: 'Outbox' },
  { id: 'sync', label: 'Sync' },
  { id: 'settings', label: 'Connection & settings' },
] as const;

export type Screen = (typeof SCREENS)[number]['id'];

export function isScreen(id: unknown): id is Screen {
  return SCREENS.some((s) => s.id === id);
}

/** The address of a screen, optionally editing a queued entry there. */
export function screenLocation(
  screen: Screen,
  editId?: string,
): { path: string; query?: LocationQueryRaw } {
  return editId ? { path: `/${screen}`, query: { edit: editId } } : { path: `/${screen}` };
}

/** The app's router; tests pass a memory history. */
export function createAppRouter(history: RouterHistory = createWebHashHistory()): Router {
  return createRouter({
    history,
    // The screens are App.vue's (the catalog stays mounted to keep its map), so routes carry
    // no components: the route names the screen.
    routes: [
      ...SCREENS.map((s) => ({ path: `/${s.id}`, name: s.id, component: { render: () => null } })),
      // A record link (`eo-field-desk://<kind>/<id>`): features/links opens it, then replaces
      // the address with the screen it shows.
      { path: '/link/:kind/:id?', name: 'link', component: { render: () => null } },
      { path: '/:rest(.*)*', redirect: '/catalog' },
    ],
  });
}
