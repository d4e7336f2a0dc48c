/** What the raster pan page (page.ts) publishes, read by bench/raster-frames.ts. */
export interface RasterPanFigures {
  /** Every frame interval (ms) with the raster on, and with the raster layer off. */
  raster: number[];
  baseline: number[];
  /** Zooms the drags ran at, drags per zoom. */
  zooms: number[];
  drags: number;
  /** Raster tiles painted over the whole run, and footprints drawn. */
  painted: number;
  footprints: number;
}
