/** Scene COGs: the data behind a download's `signed_url` (README.md in `imagery/`). */
export { SceneCogs, sceneCogPath, type SceneRef } from './scene-cogs';
export { makeSceneLookup } from './lookup';
export { registerRasterRoutes } from './routes';
