import { describe, expect, it } from 'vitest';
import { BUILTIN_INDICES, indexChoiceOf, usableOn } from '../index-choices';
import {
  histogramPercentiles,
  mapExpressionBands,
  presetBands,
  stretchLut,
  valuePercentiles,
} from '../raster-style';

const bands = [
  { name: 'B02', commonName: 'blue' },
  { name: 'B03', commonName: 'green' },
  { name: 'B04', commonName: 'red' },
  { name: 'B08', commonName: 'nir' },
];

describe('raster styles', () => {
  it('finds true and false colour by common name, or by the usual band names', () => {
    expect(presetBands(bands, 'true-colour')).toEqual([2, 1, 0]);
    expect(presetBands(bands, 'false-colour')).toEqual([3, 2, 1]);
    const named = bands.map((b) => ({ name: b.name, commonName: null }));
    expect(presetBands(named, 'false-colour')).toEqual([3, 2, 1]);
    expect(presetBands([{ name: 'PAN', commonName: 'pan' }], 'true-colour')).toBe(null);
  });

  it("maps an expression's bands by name, then by common name, and names what is missing", () => {
    expect(mapExpressionBands(['NIR', 'RED'], bands)).toEqual({ map: [3, 2] });
    expect(mapExpressionBands(['b08', 'B04'], bands)).toEqual({ map: [3, 2] });
    expect(mapExpressionBands(['SWIR1', 'RED'], bands)).toEqual({ missing: ['SWIR1'] });
  });

  it('takes the 2nd and 98th percentile of a histogram, nodata left out', () => {
    const h = new Uint32Array(65536);
    h[0] = 1_000_000; // nodata
    for (let v = 1; v <= 100; v++) h[v] = 1;
    expect(histogramPercentiles(h, [0.02, 0.98, 0, 1], 0)).toEqual([2, 98, 1, 100]);
    expect(histogramPercentiles(new Uint32Array(16), [0.5], null)).toBe(null);
    expect(valuePercentiles(Float32Array.of(NaN, 3, 1, 2, Infinity), [0, 1])).toEqual([1, 3]);
  });

  it('stretches linearly between low and high, clamped', () => {
    const lut = stretchLut(100, 200, 300);
    expect([lut[0], lut[100], lut[150], lut[200], lut[299]]).toEqual([0, 0, 128, 255, 255]);
  });

  it('says which indices a raster can show, with the index parser and the band names', () => {
    const ndvi = usableOn(BUILTIN_INDICES[0]!, bands);
    expect(ndvi).toEqual({ ok: true, bandMap: [3, 2] });
    const swir = indexChoiceOf(
      {
        name: 'NBR',
        expression: '(NIR - SWIR2) / (NIR + SWIR2)',
        colormap: 'none',
        rescale: null,
        type: 'custom',
      },
      'index:1',
    );
    expect(swir.colormap).toBe('viridis');
    expect(usableOn(swir, bands)).toEqual({ ok: false, why: 'this raster has no band SWIR2' });
    const broken = { ...swir, expression: '(NIR - ' };
    const r = usableOn(broken, bands);
    expect(r.ok).toBe(false);
  });
});
