/**
 * Small archive scenes (a few km: their COG renders in seconds), for tests here and in the
 * client packages that download scene files (`@eo/server` exports them).
 */
export { insertTestScene, testFeature, type TestScene } from '../imagery/cog/__tests__/scenes';
