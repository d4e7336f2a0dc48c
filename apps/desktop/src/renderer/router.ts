/**
 * The screens and their addresses: every screen has one (`#/orders`, `#/outbox`), and editing
 * a queued entry is one too (`#/jobs?edit=<entryId>`: the screen of the entry's kind, its form
 * filled from the entry). Each route's component is its screen, shown by App.vue's
 * `<RouterView>`. The first screen (the catalog) is in the initial JS; the others load when
 * first opened or when `loadScreens()` runs (App does once the first screen is up), so the
 * first screen comes up sooner (cold start, apps/desktop/bench/cold-start.ts). A screen whose
 * state must live across switches (`keepAlive`: the catalog keeps its map's view and data) is
 * kept by `<KeepAlive>`; the others start afresh on each visit.
 *
 * Hash history: the page is one static file (`eo-app://app/index.html` in Electron, `/` in
 * browser mode), so the path must stay in the fragment. (Browser mode's token also arrives in the fragment;
 * `bridge.ts` stores it and takes it out before the router starts.)
 */
import {
  createRouter,
  createWebHashHistory,
  loadRouteLocation,
  type LocationQueryRaw,
  type RouteComponent,
  type Router,
  type RouterHistory,
  type RouteRecordRaw,
} from 'vue-router';
import CatalogScreen from './features/catalog/CatalogScreen.vue';

interface ScreenRoute {
  readonly id: string;
  /** The header's tab. */
  readonly label: string;
  /** The screen itself (the first one), or its loader (every other). */
  readonly component:
    RouteComponent | (() => Promise<RouteComponent | { default: RouteComponent }>);
  /** Kept mounted while another screen shows (`<KeepAlive>`). */
  readonly keepAlive?: true;
}

export const SCREENS = [
  { id: 'catalog', label: 'Catalog', component: CatalogScreen, keepAlive: true },
  { id: 'orders', label: 'Orders', component: () => import('./features/orders/OrdersScreen.vue') },
  { id: 'aois', label: 'AOIs', component: () => import('./features/aois/AoisScreen.vue') },
  {
    id: 'archive',
    label: 'Archive',
    component: () => import('./features/archive/ArchiveScreen.vue'),
  },
  {
    id: 'indices',
    label: 'Indices',
    component: () => import('./features/indices/IndicesScreen.vue'),
  },
  {
    id: 'deliveries',
    label: 'Deliveries',
    component: () => import('./features/deliveries/DeliveriesScreen.vue'),
  },
  { id: 'jobs', label: 'Jobs', component: () => import('./features/jobs/JobsScreen.vue') },
  { id: 'outbox', label: 'Outbox', component: () => import('./features/outbox/OutboxScreen.vue') },
  { id: 'sync', label: 'Sync', component: () => import('./features/sync/SyncScreen.vue') },
  {
    id: 'settings',
    label: 'Connection & settings',
    component: () => import('./features/settings/SettingsScreen.vue'),
  },
] as const satisfies readonly ScreenRoute[];

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
  const screens: RouteRecordRaw[] = SCREENS.map((s: ScreenRoute) => ({
    path: `/${s.id}`,
    name: s.id,
    component: s.component,
    meta: { keepAlive: s.keepAlive === true },
  }));
  return createRouter({
    history,
    routes: [
      ...screens,
      // A record link (`eo-field-desk://<kind>/<id>`): features/links opens it, then replaces
      // the address with the screen it shows.
      { path: '/link/:kind/:id?', name: 'link', component: { render: () => null } },
      { path: '/:rest(.*)*', redirect: '/catalog' },
    ],
  });
}

/**
 * Loads every screen's code, each once, through the router's own loaders (vue-router's
 * `loadRouteLocation` keeps the loaded component in the route): afterwards a screen opens
 * without waiting for its code.
 */
export async function loadScreens(router: Router): Promise<void> {
  await Promise.all(SCREENS.map((s) => loadRouteLocation(router.resolve({ name: s.id }))));
}

declare module 'vue-router' {
  interface RouteMeta {
    /** The screen stays mounted (`<KeepAlive>`) while another one shows. */
    keepAlive?: boolean;
  }
}
