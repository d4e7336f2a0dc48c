/** Small square scenes for tests and benchmarks: the seed's own builder (`seed/square-scene.ts`). */
export { insertSquareScene, squareSceneFeature, type SquareScene } from '../seed/square-scene';
