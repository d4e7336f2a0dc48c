/**
 * The quicklook layer places records lazily (corners only for those a draw picks): what it
 * draws must be what placing every record up front drew, `drawOrder` over all of them.
 */
import { describe, expect, it } from 'vitest';
import type { ViewTransform } from '../draw-footprints';
import { mercX, mercY } from '../mercator';
import {
  clipToOutline,
  cornersOfRing,
  drawOrder,
  outlineOfRing,
  QuicklookLayer,
  type Placed,
} from '../quicklook-layer';
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
      outline: outlineOfRing(rings[i]!),
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

  it("places a decoded answer, read in place, as it places that answer's rings", () => {
    const ids: string[] = [];
    const rings: number[][] = [];
    for (let i = 0; i < 400; i++) {
      const lon = (i % 20) * 2 - 20;
      const lat = Math.floor(i / 20) * 2 + 0.5;
      ids.push(`d${i}`);
      const quad = [lon, lat, lon + 1, lat + 0.2, lon + 1.1, lat - 1, lon - 0.1, lat - 0.9];
      // Every seventh has no ring (a record without geometry).
      rings.push(i % 7 === 3 ? [] : i % 2 ? [...quad, lon, lat] : quad);
    }
    const offsets = new Uint32Array(ids.length + 1);
    rings.forEach((r, i) => (offsets[i + 1] = offsets[i]! + r.length / 2));
    const coords = new Float32Array(rings.flat());
    // What the decoded answer holds: Float32 coordinates.
    const asRead = rings.map((_, i) =>
      Array.from(coords.subarray(offsets[i]! * 2, offsets[i + 1]! * 2)),
    );
    const fromRings = new Probe(60);
    fromRings.setFootprints(ids, asRead);
    const fromSet = new Probe(60);
    fromSet.setFootprintSet({ ids, offsets, coords });
    for (const id of ids) expect(fromSet.placed(id)).toEqual(fromRings.placed(id));
    expect(fromSet.placed('d3')).toBeNull();
    const view = { scale: 2048, originX: 900, originY: 960, width: 800, height: 600 };
    const drawn = fromSet.drawView(view);
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn).toEqual(fromRings.drawView(view));
  });

  it('clips each picture to its footprint: a cut scene shows nothing past its outline', () => {
    // A five-sided footprint (a scene cut at the edge of a swath): its picture is warped onto
    // the box's four corners, so without the clip it spilled past the cut corner.
    const ring = [10, 10, 11, 10, 11, 10.6, 10.6, 11, 10, 11, 10, 10];
    const layer = new Probe(10);
    layer.setFootprints(['cut'], [ring]);
    const placed = layer.placed('cut')!;
    expect(placed.outline).toEqual(outlineOfRing(ring));
    expect(placed.outline).toHaveLength(6);
    expect(placed.outline[2]).toEqual([mercX(11), mercY(10.6)]);

    const calls: string[] = [];
    const ctx = {
      beginPath: () => calls.push('begin'),
      moveTo: (x: number, y: number) => calls.push(`M${x.toFixed(1)},${y.toFixed(1)}`),
      lineTo: (x: number, y: number) => calls.push(`L${x.toFixed(1)},${y.toFixed(1)}`),
      closePath: () => calls.push('close'),
      clip: () => calls.push('clip'),
    };
    const view = { scale: 1000, originX: 0, originY: 0, width: 800, height: 600 };
    expect(clipToOutline(ctx, placed.outline, view)).toBe(true);
    expect(calls[0]).toBe('begin');
    expect(calls.slice(-2)).toEqual(['close', 'clip']);
    expect(calls[3]).toBe(`L${(mercX(11) * 1000).toFixed(1)},${(mercY(10.6) * 1000).toFixed(1)}`);
    // Across the antimeridian the ring is not clipped (its box is what the picture fills).
    expect(outlineOfRing([179.5, 0, -179.5, 0, -179.5, 1, 179.5, 1, 179.5, 0])).toEqual([]);
    expect(clipToOutline(ctx, [], view)).toBe(false);
  });
});
