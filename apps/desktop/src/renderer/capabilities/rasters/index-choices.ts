/**
 * The indices an offline raster can be shown with: NDVI and NDWI built in (by common band
 * names, so they work on any satellite whose bands say `red`, `green`, `nir`), every index of
 * the mirror (presets and the user's own) and the custom indices still queued in the outbox,
 * each checked with the index editor's own parser against the raster's bands.
 */
import { checkExpression, parseExpression, type SpectralIndex } from '@eo/domain';
import { mapExpressionBands, type BandInfo } from './raster-style';

export interface IndexChoice {
  /** `builtin:ndvi`, `index:<id>`, `queued:<outbox entry id>`. */
  readonly key: string;
  readonly name: string;
  readonly expression: string;
  readonly colormap: string;
  /** The index's own range (its rescale), when it has one. */
  readonly rescale: readonly [number, number] | null;
  /** Where it comes from, in words. */
  readonly origin: string;
}

export const BUILTIN_INDICES: readonly IndexChoice[] = [
  {
    key: 'builtin:ndvi',
    name: 'NDVI',
    expression: '(NIR - RED) / (NIR + RED)',
    colormap: 'RdYlGn',
    rescale: [-1, 1],
    origin: 'built in',
  },
  {
    key: 'builtin:ndwi',
    name: 'NDWI',
    expression: '(GREEN - NIR) / (GREEN + NIR)',
    colormap: 'Blues',
    rescale: [-1, 1],
    origin: 'built in',
  },
];

const rescaleOf = (r: readonly number[] | null | undefined): [number, number] | null =>
  r && r.length >= 2 && r[1]! > r[0]! ? [r[0]!, r[1]!] : null;

/** An index of the mirror, or a queued index create's input, as a choice. */
export function indexChoiceOf(
  index: Pick<SpectralIndex, 'name' | 'expression' | 'colormap' | 'rescale' | 'type'>,
  key: string,
  queued = false,
): IndexChoice {
  return {
    key,
    name: index.name,
    expression: index.expression,
    colormap: index.colormap && index.colormap !== 'none' ? index.colormap : 'viridis',
    rescale: rescaleOf(index.rescale),
    origin: queued ? 'yours, not sent yet' : index.type === 'preset' ? 'preset' : 'yours',
  };
}

/** Whether a choice can be drawn on a raster with these bands, and if not, why. */
export function usableOn(
  choice: IndexChoice,
  bands: readonly BandInfo[],
): { ok: true; bandMap: number[] } | { ok: false; why: string } {
  let names: string[];
  try {
    const parsed = parseExpression(choice.expression);
    if (parsed.components.length !== 1 && parsed.components.length !== 3)
      return { ok: false, why: 'it has neither one nor three components' };
    names = parsed.bands;
  } catch {
    return {
      ok: false,
      why: checkExpression(choice.expression, 'index').problems[0]?.message ?? 'it does not parse',
    };
  }
  const mapped = mapExpressionBands(names, bands);
  if ('missing' in mapped)
    return { ok: false, why: `this raster has no band ${mapped.missing.join(', ')}` };
  return { ok: true, bandMap: mapped.map };
}
