/**
 * The catalog map's layer control: its remembered state (`map/layer-state.ts`, key below), the
 * overlays it offers, and applying the overlays to the map: footprints shown or not, with
 * their clusters at world zoom (`map/cluster-layer.ts`), and the AOIs overlay. The basemap parts are applied by `useBaseMap`, which gets the same state.
 */
import type L from 'leaflet';
import { watch, type Ref } from 'vue';
import { ClusterLayer } from '../../map/cluster-layer';
import type { LayerState } from '../../map/layer-state';
import { createAoiOverlay } from './aoi-overlay';

export const CATALOG_LAYERS_KEY = 'eo.catalog-map.layers';
/** Where the catalog map was left (`map/saved-view.ts`). */
export const CATALOG_VIEW_KEY = 'eo.catalog-map.view';

export const CATALOG_OVERLAYS = [
  { key: 'footprints', label: 'Footprints (search results)' },
  { key: 'aois', label: 'AOIs (mirrored)' },
] as const;

/** Apply the overlays' choices to the map from now on; `stop` undoes it. */
export function applyCatalogLayers(
  map: L.Map,
  layers: Readonly<Ref<LayerState>>,
  footprints: L.Layer,
  onError: (message: string) => void,
): { clusters: ClusterLayer; stop: () => void } {
  const aois = createAoiOverlay(map);
  const clusters = new ClusterLayer();
  const stops = [
    watch(
      () => layers.value.footprints,
      (on) => {
        for (const layer of [footprints, clusters]) {
          if (on && !map.hasLayer(layer)) layer.addTo(map);
          if (!on) layer.remove();
        }
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
  return {
    clusters,
    stop: () => {
      for (const stop of stops) stop();
      aois.remove();
      clusters.remove();
    },
  };
}
