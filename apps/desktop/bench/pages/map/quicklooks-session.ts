/** What the quicklook benchmark page measures per session (shared with bench/quicklooks.ts). */
export interface Session {
  readonly quicklooks: boolean;
  /** Pictures on the map at the start (the layer's `drawn`). */
  readonly drawn: number;
  /** Intervals between consecutive frames during the pans and zooms, ms. */
  readonly frames: number[];
  /** Durations of the layers' redraws (moveend, zoomend), raster included, ms. */
  readonly redraws: number[];
  /**
   * Share of the quicklook canvas's pixels that differ (by more than 2 in a channel) between
   * the redraw after a pan (the old canvas moved, the new strips drawn) and a whole redraw.
   */
  readonly panMismatch: number;
  /** JS heap used after a GC, after each cycle, bytes. */
  readonly heap: number[];
}
