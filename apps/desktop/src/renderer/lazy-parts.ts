/**
 * The parts of the first screen (the catalog) that load on first use, as the screens after it
 * do (router.ts): a map tool's panel, the dropped file's preview, the export choices, and the
 * panels around the map and the list, which mount once the first screen is up (CatalogScreen).
 * Their code is not in the initial JS (apps/desktop/bench/initial-js.ts; vite/__tests__/
 * initial-chunk.spec.ts keeps it out); while it loads, the part says so (ui/lazy-part.ts). App
 * loads them all once the first screen is up, so they rarely keep a click waiting.
 */
import { lazyPart } from './ui/lazy-part';

export { loadLazyParts } from './ui/lazy-part';

/** The preview of a field file dropped on the catalog map (with the AOI form's import). */
export const MapFileDropPanel = lazyPart(
  'the file preview',
  () => import('./capabilities/file-import/MapFileDropPanel.vue'),
);

/** The catalog's exports (ScreenExports.vue, with every screen's sources), in "Export…". */
export const ScreenExportsPart = lazyPart(
  'the exports',
  () => import('./capabilities/file-export/ScreenExports.vue'),
);

/** The compare bar and divider of two scenes on the catalog map, with its layer. */
export const CompareSwipePart = lazyPart(
  'the compare tool',
  () => import('./features/catalog/CompareSwipePanel.vue'),
);

/** "Near me" once used: geolocation, the position on the map, the typed-position form. */
export const NearMePart = lazyPart('the position tool', () => import('./map/NearMePanel.vue'));

/** The layer control's panel: basemap choice and overlays. */
export const MapLayersPart = lazyPart(
  'the layer choices',
  () => import('./map/MapLayersPanel.vue'),
);

/** The open record's panel (properties, assets, links): shown once a record is opened. */
export const DetailPanelPart = lazyPart(
  'the record panel',
  () => import('./features/catalog/DetailPanel.vue'),
);

/** "Share for the field…" of a drawn area or a saved search (capabilities/field-packages). */
export const SharePackagePart = lazyPart(
  'the field package panel',
  () => import('./capabilities/field-packages/SharePackage.vue'),
);

/** "Take offline" of the basket's scenes (its areas include a field file's, through the preview). */
export const TakeOfflinePart = lazyPart(
  'the take-offline panel',
  () => import('./capabilities/rasters/TakeOffline.vue'),
);

/**
 * Offline rasters on the catalog map and the "Offline imagery" panel in its corner (with the
 * pixel inspector, styles, exports and the dates' compare): ~55 KB the first paint does not use.
 */
export const OfflineRasterMapPart = lazyPart(
  'the offline imagery',
  () => import('./capabilities/rasters/OfflineRasterMap.vue'),
);

/** The catalog's filters (with the cloud-cover bars), mounted once the first screen is up. */
export const FilterPanelPart = lazyPart(
  'the filters',
  () => import('./features/catalog/FilterPanel.vue'),
);

/** The saved searches under the filters, mounted with them. */
export const SavedSearchesPart = lazyPart(
  'the saved searches',
  () => import('./features/catalog/SavedSearches.vue'),
);

/** The basket under the results, mounted once the first screen is up. */
export const BasketPanelPart = lazyPart(
  'the basket',
  () => import('./features/catalog/BasketPanel.vue'),
);
