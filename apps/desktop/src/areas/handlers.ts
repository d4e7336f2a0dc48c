/**
 * Every contract method's handler: each area's `handlers.ts` (beside its `contract.ts`),
 * combined into one (as the areas' contracts are in `../shared/contract/index.ts`).
 */
import type { Method } from '../shared/contract';
import type { AppHandlers } from './app/handlers';
import type { ArchiveHandlers } from './archive/handlers';
import type { BasketHandlers } from './basket/handlers';
import type { CatalogHandlers } from './catalog/handlers';
import type { ConnectionHandlers } from './connection/handlers';
import type { FilesHandlers } from './files/handlers';
import type { HandoverHandlers } from './handover/handlers';
import type { OutboxHandlers } from './outbox/handlers';
import type { RastersHandlers } from './rasters/handlers';
import type { PackagesHandlers } from './packages/handlers';
import type { RecordsHandlers } from './records/handlers';
import type { SettingsHandlers } from './settings/handlers';
import type { SyncHandlers } from './sync/handlers';
import type { TilesHandlers } from './tiles/handlers';

export { appHandlers } from './app/handlers';
export { archiveHandlers } from './archive/handlers';
export { basketHandlers } from './basket/handlers';
export { catalogHandlers } from './catalog/handlers';
export { connectionHandlers } from './connection/handlers';
export { filesHandlers } from './files/handlers';
export { handoverHandlers } from './handover/handlers';
export { outboxHandlers } from './outbox/handlers';
export { rastersHandlers } from './rasters/handlers';
export { packagesHandlers } from './packages/handlers';
export { recordsHandlers } from './records/handlers';
export { settingsHandlers } from './settings/handlers';
export { syncHandlers } from './sync/handlers';
export { tilesHandlers } from './tiles/handlers';

export type AreaHandlers = AppHandlers &
  BasketHandlers &
  SettingsHandlers &
  ConnectionHandlers &
  SyncHandlers &
  CatalogHandlers &
  TilesHandlers &
  RecordsHandlers &
  OutboxHandlers &
  HandoverHandlers &
  FilesHandlers &
  ArchiveHandlers &
  RastersHandlers &
  PackagesHandlers;

/** Compile-time: the areas together handle exactly the contract's methods, no more, no less. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** @public (a compile-time check: read by no one) */
export const AREAS_COVER_THE_CONTRACT: Same<keyof AreaHandlers, Method> = true;
