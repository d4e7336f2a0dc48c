/** What the footprints page reports for one size (bench/footprints.ts reads it). */
export interface FootprintFigures {
  n: number;
  drawn: number;
  oursFirstMs: number;
  oursRedrawMs: number;
  floorFirstMs: number;
  floorRedrawMs: number;
}
