/**
 * The renderer's initial JS (what the first screen, the catalog, parses before it can draw)
 * holds none of the parts made lazy: the other screens (router.ts), the first screen's parts
 * loaded on first use (lazy-parts.ts) and what only they import (the forms' logic, the file
 * preview, geoman). Read from the bundler's module map (vite/renderer-modules.ts), so a static
 * import that makes one eager again fails here, naming the chain that pulls it in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importChain, rendererModules, type RendererModules } from '../renderer-modules';

let bundle: RendererModules;
beforeAll(async () => {
  bundle = await rendererModules();
}, 120_000);

const R = 'apps/desktop/src/renderer/';
/** Loaded on first use; each must be in some lazy chunk (so the name here is a real one). */
const LAZY = [
  // Other screens, and the forms and stores only they use.
  `${R}features/outbox/OutboxScreen.vue`,
  `${R}features/outbox/refusal-words.ts`,
  `${R}features/orders/OrdersScreen.vue`,
  `${R}features/orders/order-item-draft.ts`,
  `${R}stores/orders-store.ts`,
  `${R}features/aois/aoi-form-store.ts`,
  `${R}features/aois/file-import-store.ts`,
  `${R}forms/form-flow.ts`,
  `${R}features/archive/ArchiveScreen.vue`,
  `${R}features/archive/archive-store.ts`,
  `${R}features/archive/ArchiveMap.vue`,
  // The first screen's parts (lazy-parts.ts).
  `${R}capabilities/file-import/MapFileDropPanel.vue`,
  `${R}stores/file-preview-store.ts`,
  `${R}capabilities/file-import/FilePreviewPanel.vue`,
  `${R}capabilities/file-export/ScreenExports.vue`,
  `${R}capabilities/file-export/export-file.ts`,
  `${R}features/catalog/CompareSwipePanel.vue`,
  `${R}features/catalog/DetailPanel.vue`,
  `${R}features/catalog/FilterPanel.vue`,
  `${R}features/catalog/CloudHistogram.vue`,
  `${R}features/catalog/SavedSearches.vue`,
  `${R}features/catalog/BasketPanel.vue`,
  `${R}format/stac-properties.ts`,
  `${R}features/catalog/use-compare-swipe.ts`,
  `${R}map/compare-layer.ts`,
  `${R}map/NearMePanel.vue`,
  `${R}map/MapLayersPanel.vue`,
  `${R}capabilities/rasters/OfflineRasterMap.vue`,
  `${R}capabilities/rasters/OfflineImageryPanel.vue`,
  // The contract's index, with every method's schemas: the first screen imports the values it
  // needs (errors, the footprints' wire form, the basket's limits) from their own files.
  'apps/desktop/src/shared/contract/index.ts',
  'apps/desktop/src/areas/outbox/contract.ts',
  // Drawing's library (map/geoman.ts).
  'node_modules/.pnpm/@geoman-io',
];

describe("the renderer's initial JS", () => {
  it('holds the first screen (the check below could not fail otherwise)', () => {
    const ids = bundle.initial.map((m) => m.id);
    expect(ids).toContain(`${R}features/catalog/CatalogScreen.vue`);
    expect(ids).toContain(`${R}features/catalog/CompareSwipe.vue`);
    expect(ids).toContain(`${R}map/NearMe.vue`);
    expect(ids.some((id) => id.includes('node_modules/.pnpm/leaflet@'))).toBe(true);
  });

  it.each(LAZY)('leaves out %s (loaded on first use)', (name) => {
    const eager = bundle.initial.filter((m) => m.id.startsWith(name));
    expect(eager.map((m) => importChain(bundle, m.id).join(' → '))).toEqual([]);
    expect(bundle.lazy.some((m) => m.id.startsWith(name))).toBe(true);
  });
});

describe("the contract's schemas", () => {
  it("stay out of the initial JS where the page needs only the basket's limits", () => {
    const contract = 'apps/desktop/src/areas/basket/contract.ts';
    const eager = bundle.initial.filter((m) => m.id === contract);
    expect(eager.map((m) => importChain(bundle, m.id).join(' → '))).toEqual([]);
    expect(bundle.initial.some((m) => m.id === 'apps/desktop/src/areas/basket/limits.ts')).toBe(
      true,
    );
  });
});

/** Every module `from` imports statically, directly or not. */
function staticClosure(from: string): Set<string> {
  const imports = new Map<string, string[]>();
  for (const [id, importers] of bundle.importers) {
    for (const i of importers) imports.set(i, [...(imports.get(i) ?? []), id]);
  }
  const seen = new Set([from]);
  for (const id of seen) for (const to of imports.get(id) ?? []) seen.add(to);
  return seen;
}

describe("the outbox's refusal texts", () => {
  it("import the forms' words, not their logic", () => {
    const reached = [...staticClosure(`${R}features/outbox/refusal-words.ts`)];
    expect(reached).toContain(`${R}forms/words/aoi-words.ts`);
    expect(reached).toContain(`${R}forms/words/order-item-words.ts`);
    const logic = [
      'features/aois/aoi-form-store.ts',
      'features/deliveries/delivery-form.ts',
      'features/indices/index-form.ts',
      'features/indices/visualization-form.ts',
      'features/jobs/job-form.ts',
      'features/orders/order-item-draft.ts',
      'forms/form-flow.ts',
    ];
    expect(reached.filter((id) => logic.some((l) => id === `${R}${l}`))).toEqual([]);
  });
});
