/**
 * The quicklook layer places records lazily (corners only for those a draw picks): what it
 * draws must be what placing every record up front drew, `drawOrder` over all of them.
 */
import { describe, expect, it } from 'vitest';
import type { ViewTransform } from '../draw-footprints';
import { mercX, mercY } from '../mercator';
import { cornersOfRing, drawOrder, QuicklookLayer, type Placed } from '../quicklook-layer';
import type { Point } from '../warp-image';

class Probe extends QuicklookLayer {
  drawnIds: string[] = [];
  constructor(maxDrawn: number) {
    super(() => null, { maxDrawn });
  }
  drawView(view: ViewTransform): string[] {
    this.drawnIds = [];
    this.drawCanvas(0, {} as CanvasRenderingContext2D, view);
    return this.drawnIds;
  }
  placed(id: string): Placed | null {
    return this.placedOf(id);
  }
  protected override drawPlaced(_c: CanvasRenderingContext2D, _v: ViewTransform, p: Placed) {
    this.drawnIds.push(p.id);
    return 0;
  }
}

/** Every record placed up front, as the layer did before. */
function placeAll(ids: string[], rings: number[][]): Placed[] {
  const out: Placed[] = [];
  ids.forEach((id, i) => {
    const c = cornersOfRing(rings[i]!);
    if (!c || c.length !== 4) return;
    const corners = c.map(([lon, lat]) => [mercX(lon), mercY(lat)]) as unknown as [
      Point,
      Point,
      Point,
      Point,
    ];
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    out.push({
      id,
      corners,
      box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    });
  });
  return out;
}

describe('quicklook placement', () => {
  it('draws what placing every record up front drew: same records, corners and boxes', () => {
    let s = 7;
    const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const ids: string[] = [];
    const rings: number[][] = [];
    for (let i = 0; i < 3000; i++) {
      const lon = rnd() * 40;
      const lat = 30 + rnd() * 20;
      ids.push(`r${i}`);
      // Open quads, closed quads, hexagons and empty rings (never drawn).
      const quad = [lon, lat, lon + 1, lat + 0.2, lon + 1.1, lat - 1, lon - 0.1, lat - 0.9];
      const kind = i % 4;
      rings.push(
        kind === 0
          ? quad
          : kind === 1
            ? [...quad, lon, lat]
            : kind === 2
              ? [
                  lon,
                  lat,
                  lon + 1,
                  lat,
                  lon + 1.5,
                  lat + 0.5,
                  lon + 1,
                  lat + 1,
                  lon,
                  lat + 1,
                  lon,
                  lat,
                ]
              : [],
      );
    }
    const all = placeAll(ids, rings);
    const layer = new Probe(50);
    layer.setFootprints(ids, rings);
    for (const p of all) expect(layer.placed(p.id)).toEqual(p);
    expect(layer.placed('r3')).toBeNull();

    const scale = 4096;
    const counts: number[] = [];
    for (const [originX, originY] of [
      [2200, 1300],
      [2400, 1500],
      [0, 0],
    ] as const) {
      const view = { scale, originX, originY, width: 800, height: 600 };
      const box = [
        originX / scale,
        originY / scale,
        (originX + 800) / scale,
        (originY + 600) / scale,
      ] as const;
      for (const top of [null, 'r2998', 'r1']) {
        layer.setTop(top);
        let want = drawOrder(all, box, top, 51);
        if (want.length - (want.at(-1)?.id === top ? 1 : 0) > 50) want = want.slice(1);
        expect(layer.drawView(view)).toEqual(want.map((p) => p.id));
        counts.push(want.length);
      }
    }
    // Views with more than the cap (50, and the open record above them when in view) and none.
    expect(counts).toEqual([50, 51, 51, 50, 50, 50, 0, 0, 0]);
  });
});
