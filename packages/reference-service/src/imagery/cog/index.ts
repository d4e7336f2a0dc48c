/** Scene COGs: the data behind a download's `signed_url` (README.md in `imagery/`). */
export {
  SceneCogs,
  sceneCogPath,
  type SceneCogFile,
  type SceneCogOptions,
  type SceneCogState,
  type SceneRef,
  type SceneSource,
} from './scene-cogs';
export { makeSceneLookup } from './lookup';
export { registerRasterRoutes, RASTER_ROUTE, COG_CONTENT_TYPE } from './routes';
