/**
 * A dropped file's features drawn on the catalog map while its preview is open: every area the
 * file holds, the picked ones solid, the others dashed; the map fits them when a file's preview
 * arrives (not when the picks change). Gone with the preview.
 */
import L from 'leaflet';
import { onBeforeUnmount, watch, type Ref } from 'vue';
import { fitToBounds } from '../../map/world-view';
import type { FilePreviewStore } from '../../stores/file-preview-store';

const PICKED: L.PathOptions = { color: '#0891b2', weight: 2, fillOpacity: 0.12 };
const LEFT: L.PathOptions = { color: '#64748b', weight: 1.5, dashArray: '4 3', fillOpacity: 0 };

export function usePreviewLayer(map: Ref<L.Map | null | undefined>, store: FilePreviewStore) {
  let layer: L.GeoJSON | null = null;

  function draw(fit: boolean): void {
    layer?.remove();
    layer = null;
    const m = map.value;
    const preview = store.preview;
    if (!m || !preview) return;
    const features = preview.features
      .filter((f) => f.area !== null)
      .map((f) => ({
        type: 'Feature' as const,
        properties: { picked: store.pickedSet.has(f.index) },
        geometry: f.area,
      }));
    if (features.length === 0) return;
    layer = L.geoJSON({ type: 'FeatureCollection', features } as GeoJSON.FeatureCollection, {
      interactive: false,
      style: (f) => ({
        ...((f?.properties as { picked: boolean }).picked ? PICKED : LEFT),
        className: 'map-drop__feature',
      }),
    }).addTo(m);
    if (fit) fitToBounds(m, layer.getBounds());
  }

  const stops = [
    watch([map, () => store.preview], () => draw(true), { immediate: true }),
    watch(
      () => [...store.pickedSet].join(','),
      () => draw(false),
    ),
  ];
  onBeforeUnmount(() => {
    for (const stop of stops) stop();
    layer?.remove();
    layer = null;
  });
  return { layer: () => layer };
}
