/**
 * What every map of the app starts from (the catalog's MapView, the GeometryMap of orders and
 * AOIs): a Leaflet map in the component's element with the offline basemap (`offline-basemap.ts`:
 * Natural Earth land, water and borders under the tiles; graticule and place names over them),
 * the tiles configured in settings fetched through the bridge, re-measured whenever its element
 * changes size, and drawing an area on demand (`use-draw-tools.ts`). The component adds its own
 * layers once mounted (its `onMounted` runs after this one) and gets the drawn area from
 * `onShape`.
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { onBeforeUnmount, onMounted, ref, shallowRef, watch, type Ref } from 'vue';
import { useBridge } from '../stores/bridge-provider';
import { useSettingsStore } from '../stores/settings-store';
import { BridgeTileLayer } from './bridge-tile-layer';
import { useDrawTools } from './use-draw-tools';
import type { LayerState } from './layer-state';
import { createOfflineBasemap, type OfflineBasemap } from './offline-basemap';
import { watchTileHealth } from './tile-health';
import { keepView, readSavedView } from './saved-view';
import { keepWorldInView, WORLD_MAP_OPTIONS } from './world-view';

export interface BaseMapOptions {
  /** Also load the 1:50m and 1:10m shapes as the map is zoomed in (world-data.ts). */
  readonly detailed?: boolean;
  /** The layer control's choices (MapLayers.vue): basemap, place names, graticule. */
  readonly layers?: Readonly<Ref<LayerState>>;
  /** Open where the map was left, kept under this localStorage key (`saved-view.ts`). */
  readonly viewKey?: string;
}

export function useBaseMap(el: Readonly<Ref<HTMLElement | null>>, options: BaseMapOptions = {}) {
  const settings = useSettingsStore();
  const map = shallowRef<L.Map | null>(null);
  /** Why part of the map is missing: the basemap or the drawing tool could not be loaded. */
  const note = ref<string | null>(null);
  /** The online tiles fail (none of the view loaded): why, and that the offline map shows. */
  const tileNote = ref<string | null>(null);
  /** Drawing an area (polygon, rectangle, circle), its live area and the editable result. */
  const draw = useDrawTools(map, (message) => (note.value = message));
  let basemap: OfflineBasemap | null = null;
  let tiles: BridgeTileLayer | null = null;
  let resize: ResizeObserver | null = null;
  let stopTiles: (() => void) | null = null;
  let stopTileHealth: (() => void) | null = null;
  let stopKeepView: (() => void) | null = null;

  /** Offline place names show when no online tiles do (they have names of their own). */
  function showOfflinePlaces(): void {
    const chosen = options.layers?.value;
    basemap?.labels.setVisible({
      places: (chosen?.places ?? true) && (tiles === null || tileNote.value !== null),
      graticule: chosen?.graticule ?? true,
    });
  }

  function setTileUrl(url: string | null): void {
    const m = map.value;
    if (!m) return;
    stopTileHealth?.();
    tiles?.remove();
    tiles = null;
    tileNote.value = null;
    if (url) {
      const bridge = useBridge();
      tiles = new BridgeTileLayer((z, x, y) => bridge.call('tiles.get', { z, x, y }), {
        attribution: 'Tiles: as configured in settings',
      });
      stopTileHealth = watchTileHealth(tiles, (note) => {
        tileNote.value = note;
        showOfflinePlaces();
      });
      tiles.addTo(m);
    }
    showOfflinePlaces();
  }

  onMounted(() => {
    if (!el.value) return;
    const saved = options.viewKey ? readSavedView(options.viewKey) : null;
    const m = L.map(el.value, {
      center: saved ? [saved.lat, saved.lng] : [20, 0],
      zoom: saved?.zoom ?? 2,
      minZoom: 1,
      maxZoom: 18,
      keyboard: true,
      // One world: no repeated copies, no empty band beyond the Mercator latitudes.
      ...WORLD_MAP_OPTIONS,
    });
    map.value = m;
    keepWorldInView(m);
    if (options.viewKey) stopKeepView = keepView(m, options.viewKey);
    m.attributionControl.setPrefix(false);
    m.attributionControl.addAttribution(
      'Land, water and borders: Natural Earth; places: GeoNames (CC BY 4.0)',
    );
    basemap = createOfflineBasemap(m, {
      detailed: options.detailed ?? false,
      onError: (message) => (note.value = message),
    });
    // Geoman (loaded on first draw) has no toolbar here: DrawTools.vue has the buttons.
    draw.install(m);
    // Maps live in screens and panels that leave the page and come back (<KeepAlive>, v-show):
    // Leaflet must re-measure.
    if (typeof ResizeObserver !== 'undefined') {
      resize = new ResizeObserver(() => {
        m.invalidateSize({ pan: false });
        keepWorldInView(m);
      });
      resize.observe(el.value);
    }
    // The configured tiles, unless the layer control chose the offline map.
    stopTiles = watch(
      () =>
        options.layers?.value.basemap === 'offline' ? null : (settings.settings?.tileUrl ?? null),
      setTileUrl,
      { immediate: true },
    );
    if (options.layers) {
      const stop = watch(
        () => [options.layers?.value.places, options.layers?.value.graticule],
        showOfflinePlaces,
      );
      const stopUrl = stopTiles;
      stopTiles = () => {
        stop();
        stopUrl();
      };
    }
  });

  onBeforeUnmount(() => {
    stopKeepView?.();
    stopTiles?.();
    resize?.disconnect();
    map.value?.remove();
    map.value = null;
  });

  return {
    map,
    note,
    tileNote,
    ...draw,
    /** The offline basemap's layers (layer control, tests). */
    basemap: () => basemap,
  };
}
