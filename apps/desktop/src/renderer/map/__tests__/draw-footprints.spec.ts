import { describe, expect, it } from 'vitest';
import {
  isSpeck,
  paintSpecks,
  rgbaOf,
  SPECKS_AS_PATH,
  traceFootprints,
  type PathTarget,
  type ViewTransform,
} from '../draw-footprints';
import { FOOTPRINT_STYLE, FOOTPRINT_STYLE_DARK } from '../footprint-layer';
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

describe('paintSpecks', () => {
  /**
   * A stand-in for the 2D context's calls painting specks, with the canvas's pixels (straight
   * RGBA). A filled path of whole-pixel boxes writes its colour into each box once, as the
   * boxes' pixels put straight in would (the same bytes in Chromium's canvas, checked for the
   * palettes' colours); a fill under any transform but the identity fails.
   */
  function pixelSink(width: number, height: number) {
    let transform = [1, 0, 0, 1, 0, 0];
    const saved: number[][] = [];
    let boxes: number[][] = [];
    const sink = {
      pixels: new Uint8ClampedArray(width * height * 4),
      puts: [] as Array<{ x: number; y: number; width: number; height: number }>,
      fills: 0,
      fillStyle: '' as string | CanvasGradient | CanvasPattern,
      createImageData: (w: number, h: number) =>
        ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4) }) as unknown as ImageData,
      putImageData(image: ImageData, x: number, y: number) {
        sink.puts.push({ x, y, width: image.width, height: image.height });
        for (let row = 0; row < image.height; row++) {
          const from = row * image.width * 4;
          sink.pixels.set(
            image.data.subarray(from, from + image.width * 4),
            ((y + row) * width + x) * 4,
          );
        }
      },
      save: () => saved.push(transform),
      restore: () => (transform = saved.pop()!),
      setTransform: (...m: number[]) => (transform = m),
      beginPath: () => (boxes = []),
      rect: (x: number, y: number, w: number, h: number) => boxes.push([x, y, w, h]),
      fill() {
        expect(transform).toEqual([1, 0, 0, 1, 0, 0]);
        sink.fills++;
        const color = rgbaOf(String(sink.fillStyle));
        for (const [x, y, w, h] of boxes) {
          expect([x, y, w, h].every(Number.isInteger)).toBe(true);
          for (let py = y!; py < y! + h!; py++)
            for (let px = x!; px < x! + w!; px++) sink.pixels.set(color, (py * width + px) * 4);
        }
      },
    };
    return sink;
  }
  const at = (sink: { pixels: Uint8ClampedArray }, width: number, x: number, y: number) =>
    Array.from(sink.pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));
  const painted = (sink: { pixels: Uint8ClampedArray }) => {
    let n = 0;
    for (let k = 3; k < sink.pixels.length; k += 4) n += sink.pixels[k]! > 0 ? 1 : 0;
    return n;
  };
  // 1-degree squares at zoom 2 (1,024 pixels a world): under 3 pixels near the equator, specks.
  const view = viewAt(0, 0, 2);
  const blue = [29, 78, 216, 217] as const;

  it('paints each speck in view as its pixel box, straight RGBA; a few as one path', () => {
    const fp = packFootprints(
      ['a', 'b', 'big', 'far'],
      [rect(10, 10, 11, 11), rect(-40, -20, -39.2, -19.2), rect(0, 0, 30, 30), rect(0, 80, 1, 81)],
    );
    expect([0, 1, 2].map((i) => isSpeck(fp, i, view.scale))).toEqual([true, true, false]);
    const sink = pixelSink(800, 600);
    expect(paintSpecks(sink, fp, view, 1, blue)).toBe(2); // 'far' is off screen
    // Two boxes filled as one path: no view-sized pixels written.
    expect([sink.fills, sink.puts.length]).toEqual([1, 0]);
    const px = Math.floor(mercX(10) * view.scale - view.originX);
    const py = Math.floor(mercY(11) * view.scale - view.originY);
    expect(at(sink, 800, px, py)).toEqual([...blue]);
    expect(at(sink, 800, px - 1, py)).toEqual([0, 0, 0, 0]);
    // Two boxes of 2 to 4 pixels a side: the big footprint is not a speck (it is traced).
    expect(painted(sink)).toBeGreaterThanOrEqual(8);
    expect(painted(sink)).toBeLessThanOrEqual(32);
  });

  it('writes many specks as the pixels of the box around them, not of the whole view', () => {
    // 600 x 10 specks a tenth of a degree apart, in a box of 60 x 1 degrees.
    const ids: string[] = [];
    const rings: number[][] = [];
    for (let k = 0; k < 6_000; k++) {
      const lon = 5 + (k % 600) / 10;
      const lat = 20 + Math.floor(k / 600) / 10;
      ids.push(`s${k}`);
      rings.push(rect(lon, lat, lon + 0.05, lat + 0.05));
    }
    const fp = packFootprints(ids, rings);
    expect(fp.count).toBeGreaterThan(SPECKS_AS_PATH);
    const sink = pixelSink(800, 600);
    expect(paintSpecks(sink, fp, view, 1, blue)).toBe(6_000);
    expect(sink.fills).toBe(0);
    const [put] = sink.puts;
    expect(sink.puts).toHaveLength(1);
    const x0 = Math.floor(mercX(5) * view.scale - view.originX);
    const y0 = Math.floor(mercY(20.95) * view.scale - view.originY);
    expect([put!.x, put!.y]).toEqual([x0, y0]);
    // The box around the specks: 60 degrees (~171 px) by ~3 px, a fraction of the 800 x 600 view.
    expect(put!.width).toBeGreaterThan(165);
    expect(put!.width).toBeLessThan(180);
    expect(put!.height).toBeLessThan(10);
    expect(at(sink, 800, x0, y0)).toEqual([...blue]);
    expect(at(sink, 800, x0 - 1, y0)).toEqual([0, 0, 0, 0]);
    // The same specks a path at a time (under the limit each) give the same pixels.
    const byPath = pixelSink(800, 600);
    for (let from = 0; from < 6_000; from += 2_000) {
      paintSpecks(byPath, fp, view, 1, blue, (i) => i >= from && i < from + 2_000);
    }
    expect([byPath.fills, byPath.puts.length]).toEqual([3, 0]);
    expect(byPath.pixels).toEqual(sink.pixels);
  });

  it('leaves out what `include` excludes, and paints nothing when no speck is left', () => {
    const fp = packFootprints(['a', 'b'], [rect(10, 10, 11, 11), rect(-40, -20, -39.2, -19.2)]);
    const one = pixelSink(800, 600);
    expect(paintSpecks(one, fp, view, 1, blue, (i) => i === 1)).toBe(1);
    const none = pixelSink(800, 600);
    expect(paintSpecks(none, fp, view, 1, blue, () => false)).toBe(0);
    expect([none.fills, none.puts.length, painted(none)]).toEqual([0, 0, 0]);
  });

  it('paints in device pixels, at least 2 x 2, and in each world copy in view', () => {
    const tiny = packFootprints(['t'], [rect(10, 10, 10.0001, 10.0001)]);
    const sink = pixelSink(1600, 1200);
    expect(paintSpecks(sink, tiny, view, 2, blue)).toBe(1);
    expect(painted(sink)).toBe(4);
    // A world 1,024 pixels wide in an 1,800-pixel view: two copies of one footprint.
    const wide = { ...viewAt(0, 0, 2), width: 1800, originX: 0 };
    const twice = pixelSink(1800, 600);
    expect(paintSpecks(twice, tiny, wide, 1, blue)).toBe(2);
    expect(painted(twice)).toBe(8);
  });
});

describe('rgbaOf', () => {
  it("reads the palettes' colours as straight RGBA bytes", () => {
    expect(rgbaOf('rgba(29, 78, 216, 0.85)')).toEqual([29, 78, 216, 217]);
    expect(rgbaOf('rgb(1, 2, 3)')).toEqual([1, 2, 3, 255]);
    expect(rgbaOf('#b45309')).toEqual([180, 83, 9, 255]);
    for (const palette of [FOOTPRINT_STYLE, FOOTPRINT_STYLE_DARK])
      for (const style of Object.values(palette)) expect(rgbaOf(style.stroke)).toHaveLength(4);
    expect(() => rgbaOf('hsl(0, 0%, 0%)')).toThrow(/not a colour/);
  });
});
