/**
 * How an offline raster is drawn: three bands as red, green and blue, each stretched between a
 * low and a high value (2nd and 98th percentile of the window by default, editable), or an
 * index (a band-math expression of the index editor, evaluated offline) through a colour ramp
 * between a low and a high value. Plain data: it crosses to the raster worker as it is.
 */
import { colormapRgb } from '@eo/domain';

export interface BandInfo {
  readonly name: string;
  readonly commonName: string | null;
}

/** Three bands (indexes into the raster's bands) and each one's [low, high] raw values. */
export interface BandsStyle {
  readonly kind: 'bands';
  readonly bands: readonly [number, number, number];
  readonly stretch: readonly [
    readonly [number, number],
    readonly [number, number],
    readonly [number, number],
  ];
}

/**
 * An index: its expression, the raster band each of the expression's bands reads (`bandMap`,
 * in the order of `compileExpression(...).bands`), the colour ramp and the range it spans.
 * A three-component expression (a composite) is drawn as red, green and blue over the range.
 */
export interface IndexStyle {
  readonly kind: 'index';
  readonly expression: string;
  readonly bandMap: readonly number[];
  readonly colormap: string;
  readonly range: readonly [number, number];
}

export type RasterStyle = BandsStyle | IndexStyle;

export const STRETCH_PERCENTILES = [0.02, 0.98] as const;

export type CombinationId = 'true-colour' | 'false-colour' | 'custom';

/** The bands of a preset combination, by common name (then usual names), or null when missing. */
export function presetBands(
  bands: readonly BandInfo[],
  preset: Exclude<CombinationId, 'custom'>,
): [number, number, number] | null {
  const find = (common: string, names: readonly string[]) => {
    const byCommon = bands.findIndex((b) => b.commonName?.toLowerCase() === common);
    if (byCommon >= 0) return byCommon;
    return bands.findIndex((b) => names.includes(b.name.toUpperCase()));
  };
  const red = find('red', ['B04', 'RED', 'R']);
  const green = find('green', ['B03', 'GREEN', 'G']);
  const blue = find('blue', ['B02', 'BLUE', 'B']);
  const nir = find('nir', ['B08', 'NIR', 'N']);
  const picked: [number, number, number] =
    preset === 'true-colour' ? [red, green, blue] : [nir, red, green];
  return picked.every((i) => i >= 0) ? picked : null;
}

/**
 * The raster band each of an expression's bands reads: the same name (then the same name in
 * any case), else the band whose common name is the expression's name in lower case (`NIR`
 * reads the band whose common name is `nir`), as the service maps a satellite's bands.
 */
export function mapExpressionBands(
  names: readonly string[],
  bands: readonly BandInfo[],
): { map: number[] } | { missing: string[] } {
  const map: number[] = [];
  const missing: string[] = [];
  for (const n of names) {
    let i = bands.findIndex((b) => b.name === n);
    if (i < 0) i = bands.findIndex((b) => b.name.toLowerCase() === n.toLowerCase());
    if (i < 0) i = bands.findIndex((b) => b.commonName?.toLowerCase() === n.toLowerCase());
    if (i < 0) missing.push(n);
    else map.push(i);
  }
  return missing.length ? { missing } : { map };
}

/** The values at the given fractions of a histogram of integer values (ignoring `skip`). */
export function histogramPercentiles(
  histogram: Uint32Array,
  fractions: readonly number[],
  skip: number | null,
): number[] | null {
  let total = 0;
  for (let v = 0; v < histogram.length; v++) if (v !== skip) total += histogram[v]!;
  if (total === 0) return null;
  return fractions.map((f) => {
    const target = Math.min(total - 1, Math.floor(f * (total - 1)));
    let seen = 0;
    for (let v = 0; v < histogram.length; v++) {
      if (v === skip) continue;
      seen += histogram[v]!;
      if (seen > target) return v;
    }
    return histogram.length - 1;
  });
}

/** The values at the given fractions of finite values (the service's index percentile rule). */
export function valuePercentiles(
  values: Float32Array,
  fractions: readonly number[],
): number[] | null {
  const finite = values.filter(Number.isFinite).sort();
  if (finite.length === 0) return null;
  return fractions.map(
    (f) => finite[Math.min(finite.length - 1, Math.floor(f * (finite.length - 1)))]!,
  );
}

/** Raw value -> 0..255 between `lo` and `hi` (linear, clamped), for every 16-bit value. */
export function stretchLut(lo: number, hi: number, size = 65536): Uint8Array {
  const lut = new Uint8Array(size);
  const span = hi > lo ? hi - lo : 1;
  for (let v = 0; v < size; v++)
    lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) / span) * 255)));
  return lut;
}

/** Steps of a colour ramp: RGB of 256 positions along the colormap. */
export function rampLut(colormap: string): Uint8Array {
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) lut.set(colormapRgb(colormap, i / 255), i * 3);
  return lut;
}

/** A key that changes when the style draws differently (the worker's caches use it). */
export function styleKey(s: RasterStyle): string {
  return JSON.stringify(s);
}
