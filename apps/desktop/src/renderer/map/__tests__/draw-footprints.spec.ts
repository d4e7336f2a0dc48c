import { describe, expect, it } from 'vitest';
import { traceFootprints, type PathTarget, type ViewTransform } from '../draw-footprints';
import { packFootprints } from '../footprints';
import { mercX, mercY, worldScale } from '../mercator';

/** Records path commands, standing in for a canvas context (happy-dom has no 2D canvas). */
class PathRecorder implements PathTarget {
  readonly ops: string[] = [];
  moveTo(x: number, y: number): void {
    this.ops.push(`M${x.toFixed(1)},${y.toFixed(1)}`);
  }
  lineTo(x: number, y: number): void {
    this.ops.push(`L${x.toFixed(1)},${y.toFixed(1)}`);
  }
  closePath(): void {
    this.ops.push('Z');
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.ops.push(`R${x},${y},${w},${h}`);
  }
}

function rect(w: number, s: number, e: number, n: number): number[] {
  return [w, s, e, s, e, n, w, n, w, s];
}

/** A 800x600 view centred on (lon, lat) at a zoom level. */
function viewAt(lon: number, lat: number, zoom: number): ViewTransform {
  const scale = worldScale(zoom);
  return {
    scale,
    originX: mercX(lon) * scale - 400,
    originY: mercY(lat) * scale - 300,
    width: 800,
    height: 600,
  };
}

describe('traceFootprints', () => {
  const fp = packFootprints(
    ['here', 'there', 'tiny'],
    [rect(10, 10, 12, 12), rect(100, 10, 102, 12), rect(11, 15, 11.00001, 15.00001)],
  );

  it('traces only footprints on screen, one subpath each, in canvas pixels', () => {
    const rec = new PathRecorder();
    const n = traceFootprints(rec, fp, viewAt(11, 11, 6));
    expect(n).toBe(2); // 'there' is off screen
    const first = rec.ops.slice(0, 6);
    expect(first[0]).toMatch(/^M/);
    expect(first.filter((o) => o.startsWith('L'))).toHaveLength(4);
    expect(first[5]).toBe('Z');
    // The centre of the view is the centre of the canvas.
    const [mx, my] = rec.ops[0]!.slice(1).split(',').map(Number);
    expect(mx).toBeCloseTo(400 - (mercX(11) - mercX(10)) * worldScale(6), 0);
    expect(my).toBeGreaterThan(300);
    // A footprint smaller than a pixel becomes a two-pixel square.
    expect(rec.ops.at(-1)).toMatch(/^R\d+,\d+,2,2$/);
  });

  it('honours include and only', () => {
    const rec = new PathRecorder();
    expect(traceFootprints(rec, fp, viewAt(11, 11, 6), (i) => i !== 0)).toBe(1);
    expect(traceFootprints(new PathRecorder(), fp, viewAt(11, 11, 6), undefined, [0])).toBe(1);
    expect(traceFootprints(new PathRecorder(), fp, viewAt(11, 11, 6), undefined, [1])).toBe(0);
  });

  it('hands over every batch of rings to be painted', () => {
    const many = packFootprints(
      Array.from({ length: 70 }, (_, i) => `f${i}`),
      Array.from({ length: 70 }, (_, i) =>
        rect(10 + (i % 10) * 0.1, 10, 10.05 + (i % 10) * 0.1, 10.05),
      ),
    );
    const rec = new PathRecorder();
    const flushedAt: number[] = [];
    const n = traceFootprints(rec, many, viewAt(10.5, 10, 8), undefined, undefined, {
      size: 32,
      flush: () => flushedAt.push(rec.ops.filter((o) => o === 'Z' || o.startsWith('R')).length),
    });
    expect(n).toBe(70);
    expect(flushedAt).toEqual([32, 64]); // the caller paints the last 6
  });

  it('skips vertices closer than a pixel at low zoom', () => {
    const dense: number[] = [];
    for (let k = 0; k <= 100; k++) dense.push(10 + k * 0.001, 10);
    dense.push(10.1, 11, 10, 11, 10, 10);
    const one = packFootprints(['d'], [dense]);
    const rec = new PathRecorder();
    traceFootprints(rec, one, viewAt(10, 10, 3));
    expect(rec.ops.length).toBeLessThan(10);
    const near = new PathRecorder();
    traceFootprints(near, one, viewAt(10, 10, 18));
    expect(near.ops.length).toBeGreaterThan(50);
  });

  it('draws the world copy a footprint is visible in', () => {
    // Looking at lon 190 (= -170 one world to the right) shows a footprint at -170.
    const fp2 = packFootprints(['w'], [rect(-171, 0, -169, 2)]);
    const scale = worldScale(5);
    const view: ViewTransform = {
      scale,
      originX: mercX(190) * scale - 400,
      originY: mercY(1) * scale - 300,
      width: 800,
      height: 600,
    };
    expect(traceFootprints(new PathRecorder(), fp2, view)).toBe(1);
  });
});
