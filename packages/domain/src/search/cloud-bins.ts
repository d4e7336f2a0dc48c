/**
 * The cloud-cover histogram's bins (the desktop's filter panel): 10 bins of 10 % each, the
 * last one closed (100 % counts in 90–100 %). Defined once here for the mirror's SQL, the
 * desktop contract and the renderer.
 */
export const CLOUD_COVER_BINS = 10;
export const CLOUD_COVER_BIN_WIDTH = 100 / CLOUD_COVER_BINS;

/** The bin of a cloud-cover percentage; values outside 0–100 go to the nearest end bin. */
export function cloudCoverBin(percent: number): number {
  const bin = Math.floor(percent / CLOUD_COVER_BIN_WIDTH);
  return Math.min(CLOUD_COVER_BINS - 1, Math.max(0, bin));
}
