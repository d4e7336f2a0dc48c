/** @eo/server public surface: build the app, start it, seed it (used by tests of other packages and the desktop). */
export { buildApp } from './app';
export { resolveConfig, type ServerConfig } from './config';
export { startServer, type RunningServer } from './server';
export { seedDemo, type SeedOptions } from './seed/demo';
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
// Moved to @eo/fixtures; re-exported while callers move (import it from @eo/fixtures).
export { DEMO } from '@eo/fixtures';
