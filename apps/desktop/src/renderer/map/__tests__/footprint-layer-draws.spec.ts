/**
 * When the footprint layer draws its base canvas: a new set is drawn in the next frame, so a
 * set and the move that fits the map to it (one task: a new search's results) draw once, at
 * the new view. happy-dom has no canvas: a recording context stands in for the 2D one.
 */
import L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FootprintLayer } from '../footprint-layer';
import { giveElementsSize } from './layout';
import { square } from './rings';

/** Base-canvas draws (one clearRect each) per canvas, in order. */
let draws: HTMLCanvasElement[] = [];
/** Speck boxes painted (a few are filled as a path of boxes), and subpaths traced, on any canvas. */
let specks = 0;
let traced = 0;
let undo: Array<() => void> = [];

function recordingContext(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const noop = () => undefined;
  return new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => {
      if (key === 'clearRect') return () => draws.push(canvas);
      if (key === 'rect') return () => specks++;
      if (key === 'moveTo') return () => traced++;
      if (key === 'createImageData')
        return (w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4) });
      return key in target ? target[key] : noop;
    },
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
}

beforeEach(() => {
  draws = [];
  const proto = HTMLCanvasElement.prototype;
  const saved = Object.getOwnPropertyDescriptor(proto, 'getContext');
  const contexts = new WeakMap<HTMLCanvasElement, CanvasRenderingContext2D>();
  Object.defineProperty(proto, 'getContext', {
    configurable: true,
    value(this: HTMLCanvasElement) {
      let ctx = contexts.get(this);
      if (!ctx) contexts.set(this, (ctx = recordingContext(this)));
      return ctx;
    },
  });
  undo = [
    giveElementsSize(800, 600),
    () => saved && Object.defineProperty(proto, 'getContext', saved),
  ];
});
afterEach(() => {
  for (const u of undo) u();
});

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

function setup(): { map: L.Map; layer: FootprintLayer; base: () => number } {
  const el = document.createElement('div');
  document.body.append(el);
  const map = L.map(el, { center: [0, 0], zoom: 2, zoomAnimation: false, fadeAnimation: false });
  const layer = new FootprintLayer().addTo(map);
  const canvas = el.querySelector<HTMLCanvasElement>('.eo-canvas-view__canvas')!;
  draws = [];
  specks = 0;
  traced = 0;
  return { map, layer, base: () => draws.filter((c) => c === canvas).length };
}

describe('FootprintLayer draws', () => {
  it('draws a new set and the fit that follows it once, at the fitted view', async () => {
    const { map, layer, base } = setup();
    layer.setFootprints(['a', 'b'], [square(40, 40), square(42, 41)]);
    map.fitBounds(layer.boundsOf()!, { animate: false });
    expect(map.getZoom()).toBeGreaterThan(2); // a zoom without animation: viewreset and moveend
    expect(base()).toBe(1);
    expect(layer.lastDrawn).toBe(2);
    await nextFrame();
    expect(base()).toBe(1);
    map.remove();
  });

  it('draws a new set in the next frame when the view stays', async () => {
    const { map, layer, base } = setup();
    layer.setFootprints(['a'], [square(10, 10)]);
    expect(base()).toBe(0);
    await nextFrame();
    expect(base()).toBe(1);
    // At zoom 2 a 1-degree square is under 3 pixels: painted as a speck, not traced as well.
    expect(layer.lastDrawn).toBe(1);
    expect([specks, traced]).toEqual([1, 0]);
    map.remove();
  });

  // Leaflet ends a move that moved nothing with a moveend too: fitting the catalog map, opened
  // where its results were last fitted, to those results (map/saved-view.ts).
  it('draws nothing again after a move that moved nothing; a pan draws', async () => {
    const { map, layer, base } = setup();
    layer.setFootprints(['a'], [square(10, 10)]);
    await nextFrame();
    expect(base()).toBe(1);
    map.setView(map.getCenter(), map.getZoom(), { animate: false });
    map.fire('moveend');
    expect(base()).toBe(1);
    await nextFrame();
    expect(base()).toBe(1);
    map.panBy([50, 0], { animate: false });
    expect(base()).toBe(2);
    map.remove();
  });

  it('draws nothing once removed before that frame', async () => {
    const { map, layer, base } = setup();
    layer.setFootprints(['a'], [square(10, 10)]);
    layer.remove();
    await nextFrame();
    expect(base()).toBe(0);
    map.remove();
  });
});

describe('A map layer added to the map', () => {
  function added(): { map: L.Map; base: () => number } {
    const el = document.createElement('div');
    document.body.append(el);
    const map = L.map(el, { center: [0, 0], zoom: 2, zoomAnimation: false, fadeAnimation: false });
    draws = [];
    new FootprintLayer().addTo(map);
    const canvas = el.querySelector<HTMLCanvasElement>('.eo-canvas-view__canvas')!;
    return { map, base: () => draws.filter((c) => c === canvas).length };
  }

  // The first screen: the map is made with its layers, then fitted to the first results.
  it('and moved in the same task draws once, at the moved view', async () => {
    const { map, base } = added();
    expect(base()).toBe(0);
    map.setView([40, 40], 5, { animate: false });
    expect(base()).toBe(1);
    await nextFrame();
    expect(base()).toBe(1);
    map.remove();
  });

  it('and left where it is draws in the next frame', async () => {
    const { map, base } = added();
    expect(base()).toBe(0);
    await nextFrame();
    expect(base()).toBe(1);
    map.remove();
  });
});
