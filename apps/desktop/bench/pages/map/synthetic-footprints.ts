/** The benches' footprints (bench/page.ts, bench-pan/page.ts). */
/** Deterministic quads of 10-50 km, slightly skewed, over Europe. */
export function footprints(n: number): { ids: string[]; rings: number[][] } {
  let s = 1;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const ids: string[] = [];
  const rings: number[][] = [];
  for (let i = 0; i < n; i++) {
    const lon = -10 + rnd() * 40;
    const lat = 35 + rnd() * 25;
    const w = 0.1 + rnd() * 0.4;
    const h = 0.1 + rnd() * 0.4;
    const k = rnd() * 0.05;
    ids.push(`s${i}`);
    rings.push([lon, lat, lon + w, lat + k, lon + w + k, lat + h, lon + k, lat + h + k, lon, lat]);
  }
  return { ids, rings };
}
