/**
 * @eo/reference-service public surface: build the app, start it, seed it. Used by the `eo-server`
 * CLI (apps/server), the desktop's embedded backend, and the tests and benchmarks of other packages.
 */
export { buildApp } from './app';
export { checkAssetOrigin, resolveConfig, type ServerConfig } from './config';
export { openDatabase } from './db/client';
export { hashKey } from './http/auth';
export { closeOnSignals, startServer, type RunningServer } from './server';
export { DEFAULT_SEED_SCENES, isSeeded, seedDemo, type SeedOptions } from './seed/demo';
export { seedDemoWork } from './seed/demo-work';
export {
  generateCatalogRecords,
  insertCatalogRecords,
  type BulkCatalogOptions,
} from './seed/bulk-catalog';
export { createApiKey, createOrganization, createProject, createUser } from './orgs/repository';
export { SATELLITES, COLLECTIONS, BANDSETS } from './reference/catalog';
export { catalogRecordAsSent } from './imagery/hrefs';
export { insertSquareScene, squareSceneFeature, type SquareScene } from './testing/scenes';
