import { describe, expect, it } from 'vitest';
import {
  colormapRgb,
  COLORMAPS,
  indexPngHeaderLegend,
  quicklookCorners,
  VisualizationPngRequest,
} from '../imagery';

describe('quicklookCorners', () => {
  it('maps a four-cornered footprint in ring order', () => {
    const ring = [
      [1, 2],
      [3, 2.5],
      [2.5, 0],
      [0.5, -0.5],
      [1, 2],
    ];
    expect(quicklookCorners({ type: 'Polygon', coordinates: [ring] }, null)).toEqual(
      ring.slice(0, 4),
    );
  });

  it('falls back to the bbox, north up, continuing east across the antimeridian', () => {
    const multi = {
      type: 'MultiPolygon' as const,
      coordinates: [
        [
          [
            [179, 0],
            [180, 0],
            [180, 1],
            [179, 0],
          ],
        ],
      ],
    };
    expect(quicklookCorners(multi, [179, 0, -179, 1])).toEqual([
      [179, 1],
      [181, 1],
      [181, 0],
      [179, 0],
    ]);
    expect(quicklookCorners(null, null)).toBeNull();
    expect(quicklookCorners(null, [0, 0, Number.NaN, 1])).toBeNull();
  });
});

describe('colormaps', () => {
  it('starts and ends on the first and last stop, clamps outside 0..1', () => {
    expect(colormapRgb('Blues', 0)).toEqual([0xf7, 0xfb, 0xff]);
    expect(colormapRgb('Blues', 1)).toEqual([0x08, 0x30, 0x6b]);
    expect(colormapRgb('Blues', 7)).toEqual(colormapRgb('Blues', 1));
    expect(colormapRgb('Blues', Number.NaN)).toEqual(colormapRgb('Blues', 0));
    expect(colormapRgb('no-such-map', 0)).toEqual(colormapRgb('viridis', 0));
    for (const stops of Object.values(COLORMAPS))
      for (const s of stops) expect(s).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('VisualizationPngRequest (the real service’s atlas.PngRequest)', () => {
  it('takes YYYY_MM_DD (or YYYY-MM-DD) dates and the two modes, nothing else', () => {
    expect(
      VisualizationPngRequest.parse({
        index_id: 'i',
        date: '2024_05_06',
        visualization_mode: 'dynamic',
      }),
    ).toEqual({ index_id: 'i', date: '2024-05-06', visualization_mode: 'dynamic' });
    for (const bad of [
      { index_id: 'i', date: '06/05/2024', visualization_mode: 'dynamic' },
      { index_id: 'i', date: '2024_05_06', visualization_mode: 'other' },
      { index_id: 'i', date: '2024_05_06' },
      { index_id: 'i', date: '2024_05_06', visualization_mode: 'dynamic', extra: 1 },
    ])
      expect(VisualizationPngRequest.safeParse(bad).success).toBe(false);
  });
});

describe('indexPngHeaderLegend', () => {
  const read = (h: Record<string, string>) => indexPngHeaderLegend((n) => h[n] ?? null);
  it('reads bounds, rescale and colormap from the index PNG’s headers', () => {
    expect(
      read({
        'x-eo-bounds': '11.1,44.2,11.3,44.4',
        'x-eo-rescale': '-1,1',
        'x-eo-colormap': 'RdYlGn',
      }),
    ).toEqual({ bounds: [11.1, 44.2, 11.3, 44.4], rescale: [-1, 1], colormap: 'RdYlGn' });
  });
  it('gives null for what is absent or malformed (the real service sends none of them)', () => {
    expect(read({})).toEqual({ bounds: null, rescale: null, colormap: null });
    expect(
      read({ 'x-eo-bounds': '11,44,10,45', 'x-eo-rescale': '1,1', 'x-eo-colormap': 'a b<script>' }),
    ).toEqual({ bounds: null, rescale: null, colormap: null });
    expect(read({ 'x-eo-bounds': '1,2,3', 'x-eo-rescale': 'x,1' })).toMatchObject({
      bounds: null,
      rescale: null,
    });
  });
});
