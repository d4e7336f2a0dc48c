/**
 * "Go to place": search over the bundled places (every tier of `places.ts`, GeoNames places of
 * 1,000 inhabitants and more). Matching ignores case and diacritics ("sao paulo" finds São
 * Paulo, "malmo" Malmö, "lodz" Łódź) and takes a prefix of the name or of any word in it
 * ("paulo" finds São Paulo); "name, CC" keeps places of that country code. Exact names first,
 * then name prefixes, then word prefixes; larger places first within each.
 */
import { loadPlaceTier, PLACE_TIER_ZOOMS, type Places } from './places';

export interface PlaceMatch {
  readonly name: string;
  readonly country: string;
  readonly lat: number;
  readonly lon: number;
  readonly population: number;
}

/** Letters that Unicode does not decompose into a base letter and a mark. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lower case, without diacritics, punctuation as spaces, spaces collapsed. */
export function foldName(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDS[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface Gazetteer {
  readonly size: number;
  search(query: string, limit?: number): PlaceMatch[];
}

export function createGazetteer(sets: readonly Places[]): Gazetteer {
  const entries: Array<{ set: Places; i: number; folded: string }> = [];
  for (const set of sets) {
    for (let i = 0; i < set.names.length; i++) {
      entries.push({ set, i, folded: foldName(set.names[i]!) });
    }
  }
  return {
    size: entries.length,
    search(query, limit = 8) {
      const [namePart = '', countryPart] = query.split(',');
      const q = foldName(namePart);
      const country = countryPart?.trim().toUpperCase() ?? '';
      if (!q) return [];
      const word = ' ' + q;
      const found: Array<{ rank: number; set: Places; i: number }> = [];
      for (const e of entries) {
        let rank: number;
        if (e.folded === q) rank = 0;
        else if (e.folded.startsWith(q)) rank = 1;
        else if (e.folded.includes(word)) rank = 2;
        else continue;
        if (country && !e.set.countries[e.i]!.startsWith(country)) continue;
        found.push({ rank, set: e.set, i: e.i });
      }
      found.sort((a, b) => a.rank - b.rank || b.set.population[b.i]! - a.set.population[a.i]!);
      return found.slice(0, limit).map(({ set, i }) => ({
        name: set.names[i]!,
        country: set.countries[i]!,
        lat: set.lat[i]!,
        lon: set.lon[i]!,
        population: set.population[i]!,
      }));
    },
  };
}

/** A zoom that shows a place and some of its surroundings (a city needs more room). */
export function zoomForPlace(population: number): number {
  if (population >= 1_000_000) return 10;
  if (population >= 100_000) return 11;
  return 12;
}

let loading: Promise<Gazetteer> | null = null;

/** Every place tier (loaded once, shared with the maps' labels), as one gazetteer. */
export function loadGazetteer(): Promise<Gazetteer> {
  loading ??= Promise.all(PLACE_TIER_ZOOMS.map((_, t) => loadPlaceTier(t))).then(
    createGazetteer,
    (e: unknown) => {
      loading = null; // may be tried again
      throw e;
    },
  );
  return loading;
}
