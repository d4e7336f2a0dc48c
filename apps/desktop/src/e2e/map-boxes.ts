/**
 * The boxes of a map's controls, as the page lays them out, for the layout journeys: every
 * control a user points at (Leaflet's zoom and layers, the go-to boxes, the tools, the drawing
 * buttons, the imagery and compare controls, the scale and attribution) that is shown, with its
 * name, and which of them lie over one another or out of the map.
 */
import type { Locator } from 'playwright-core';
import type { Box } from './page-actions';

/** A map's controls, each a selector inside the map's holder and the name a failure gives. */
export const MAP_CONTROLS: ReadonlyArray<readonly [selector: string, name: string]> = [
  ['.leaflet-control-zoom', 'zoom buttons'],
  ['[data-test="goto-input"]', 'go-to input'],
  ['[data-test="goto-form"] button', '"Go"'],
  ['[data-test="place-input"]', 'place search'],
  ['[data-test="near-me"]', '"Near me"'],
  ['[data-test="near-me-type"]', '"Type my position"'],
  ['.map-frame__tools button', 'map tool'],
  ['.draw-tools__row button', 'drawing button'],
  ['.draw-tools__radius', 'circle radius'],
  ['[data-test="layers-button"]', '"Layers"'],
  ['.map-view__imagery', 'imagery control'],
  ['[data-test="compare-open"]', '"Compare two scenes"'],
  ['.leaflet-control-scale', 'scale bar'],
  ['.leaflet-control-attribution', 'attribution'],
];

export interface ControlBox extends Box {
  readonly name: string;
}

/** The map's box and each shown control's box inside `holder` (the map's section). */
export async function controlBoxes(holder: Locator): Promise<{ map: Box; controls: ControlBox[] }> {
  // `el` and what it holds are untyped here (this side has no DOM types): the code runs in the page.
  return holder.evaluate(
    (el, controls) => {
      const box = (r: Box): Box => ({ x: r.x, y: r.y, width: r.width, height: r.height });
      const out: ControlBox[] = [];
      for (const [selector, name] of controls) {
        [...el.querySelectorAll(selector)].forEach((c, k) => {
          const r = c.getBoundingClientRect();
          const hidden = c.ownerDocument.defaultView.getComputedStyle(c).visibility === 'hidden';
          if (r.width === 0 || r.height === 0 || hidden) return;
          out.push({ name: `${name}${k > 0 ? ` ${k + 1}` : ''}`, ...box(r) });
        });
      }
      return {
        map: box(el.querySelector('.map-frame__map').getBoundingClientRect()),
        controls: out,
      };
    },
    MAP_CONTROLS as Array<readonly [string, string]>,
  );
}

/** Two boxes share more than half a pixel both ways. */
export const overlap = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;

/** `c` lies within `m` (half a pixel of rounding allowed). */
export const inside = (c: Box, m: Box) =>
  c.x >= m.x - 0.5 &&
  c.y >= m.y - 0.5 &&
  c.x + c.width <= m.x + m.width + 0.5 &&
  c.y + c.height <= m.y + m.height + 0.5;

/**
 * What is wrong with the layout: pairs of controls lying over each other, and controls outside
 * the map (cut off). Empty when every control has its own room.
 */
export function layoutProblems(boxes: { map: Box; controls: readonly ControlBox[] }): string[] {
  const problems: string[] = [];
  const { map, controls } = boxes;
  controls.forEach((a, i) => {
    if (!inside(a, map)) problems.push(`${a.name} is (partly) outside the map`);
    for (const b of controls.slice(i + 1))
      if (overlap(a, b)) problems.push(`${a.name} lies over ${b.name}`);
  });
  return problems;
}
