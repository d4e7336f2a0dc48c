/**
 * The screens after the first one (the catalog), each loaded when first opened or when
 * `loadScreens()` runs (App does once the first screen is up): their code, forms and
 * validation are not in the initial JS, so the first screen comes up sooner (cold start,
 * apps/desktop/bench/cold-start.ts). Defined once, here: a screen loaded once then mounts at once.
 */
import { defineAsyncComponent, type Component } from 'vue';

const lazy = (load: () => Promise<{ default: Component }>) => defineAsyncComponent(load);

export const SettingsScreen = lazy(() => import('./features/settings/SettingsScreen.vue'));
export const SyncScreen = lazy(() => import('./features/sync/SyncScreen.vue'));
export const AoisScreen = lazy(() => import('./features/aois/AoisScreen.vue'));
export const DeliveriesScreen = lazy(() => import('./features/deliveries/DeliveriesScreen.vue'));
export const IndicesScreen = lazy(() => import('./features/indices/IndicesScreen.vue'));
export const JobsScreen = lazy(() => import('./features/jobs/JobsScreen.vue'));
export const OrdersScreen = lazy(() => import('./features/orders/OrdersScreen.vue'));
export const OutboxScreen = lazy(() => import('./features/outbox/OutboxScreen.vue'));
export const ArchiveScreen = lazy(() => import('./features/archive/ArchiveScreen.vue'));

const ALL = [
  SettingsScreen,
  SyncScreen,
  AoisScreen,
  DeliveriesScreen,
  IndicesScreen,
  JobsScreen,
  OrdersScreen,
  OutboxScreen,
  ArchiveScreen,
];

/** Loads every screen's code (each once); afterwards they mount without waiting. */
export async function loadScreens(): Promise<void> {
  await Promise.all(
    ALL.map((c) => (c as { __asyncLoader?: () => Promise<unknown> }).__asyncLoader?.()),
  );
}
