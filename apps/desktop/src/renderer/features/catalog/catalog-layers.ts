/**
 * The catalog map's layer control: its remembered state (`map/layer-state.ts`, key below), the
 * overlays it offers, and applying the overlays to the map (footprints shown or not, the AOIs
 * overlay). The basemap parts are applied by `useBaseMap`, which gets the same state.
 */
import type L from 'leaflet';
import { watch, type Ref } from 'vue';
import type { LayerState } from '../../map/layer-state';
import { createAoiOverlay } from './aoi-overlay';

export const CATALOG_LAYERS_KEY = 'eo.catalog-map.layers';

export const CATALOG_OVERLAYS = [
  { key: 'footprints', label: 'Footprints (search results)' },
  { key: 'aois', label: 'AOIs (mirrored)' },
] as const;

/** Apply the overlays' choices to the map from now on; returns the undo. */
export function applyCatalogLayers(
  map: L.Map,
  layers: Readonly<Ref<LayerState>>,
  footprints: L.Layer,
  onError: (message: string) => void,
): () => void {
  const aois = createAoiOverlay(map);
  const stops = [
    watch(
      () => layers.value.footprints,
      (on) => {
        if (on && !map.hasLayer(footprints)) footprints.addTo(map);
        if (!on) footprints.remove();
      },
      { immediate: true },
    ),
    watch(
      () => layers.value.aois,
      (on) =>
        void aois.setVisible(on).catch(() => onError('The AOIs could not be read for the map.')),
      { immediate: true },
    ),
  ];
  return () => {
    for (const stop of stops) stop();
    aois.remove();
  };
}
