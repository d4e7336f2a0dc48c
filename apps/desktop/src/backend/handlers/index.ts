/**
 * Every contract method's handler, one file per area of the contract (`shared/contract/`),
 * combined into one (as the contract's areas are in `shared/contract/index.ts`).
 */
import type { Method } from '../../shared/contract';
import type { AppHandlers } from './app';
import type { ArchiveHandlers } from './archive';
import type { BasketHandlers } from './basket';
import type { CatalogHandlers } from './catalog';
import type { ConnectionHandlers } from './connection';
import type { FilesHandlers } from './files';
import type { HandoverHandlers } from './handover';
import type { OutboxHandlers } from './outbox';
import type { RastersHandlers } from './rasters';
import type { PackagesHandlers } from './packages';
import type { RecordsHandlers } from './records';
import type { SettingsHandlers } from './settings';
import type { SyncHandlers } from './sync';
import type { TilesHandlers } from './tiles';

export { appHandlers } from './app';
export { archiveHandlers } from './archive';
export { basketHandlers } from './basket';
export { catalogHandlers } from './catalog';
export { connectionHandlers } from './connection';
export { filesHandlers } from './files';
export { handoverHandlers } from './handover';
export { outboxHandlers } from './outbox';
export { rastersHandlers } from './rasters';
export { packagesHandlers } from './packages';
export { recordsHandlers } from './records';
export { settingsHandlers } from './settings';
export { syncHandlers } from './sync';
export { tilesHandlers } from './tiles';

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
