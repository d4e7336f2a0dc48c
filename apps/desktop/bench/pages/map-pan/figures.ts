/** What the pan bench page (page.ts) publishes, read by bench/pan.ts. */
export interface PanFigures {
  n: number;
  drags: number;
  /** Every frame interval (ms) with footprints on, and with the basemap only. */
  full: number[];
  baseline: number[];
  /** Time in our handlers per mousemove (footprints on), and in each drag's mouseup (the
   * redraw of every canvas layer) with footprints on and with the basemap only. */
  moves: number[];
  ends: number[];
  endsBaseline: number[];
  /** Place names drawn (the labels were on). */
  places: number;
}
