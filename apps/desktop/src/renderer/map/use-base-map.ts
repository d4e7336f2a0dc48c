/**
 * What every map of the app starts from (the catalog's MapView, the GeometryMap of orders and
 * AOIs): a Leaflet map in the component's element with the offline basemap (`offline-basemap.ts`:
 * Natural Earth land, water and borders under the tiles; graticule and place names over them),
 * the tiles configured in settings fetched through the bridge, re-measured whenever its element changes size, and geoman polygon
 * drawing on demand. The component adds its own layers once mounted (its `onMounted` runs
 * after this one) and listens to `pm:create` for the drawn polygon.
 */
import { geodesicArea } from '@eo/domain';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { onBeforeUnmount, onMounted, ref, shallowRef, watch, type Ref } from 'vue';
import { useBridge } from '../stores/bridge-provider';
import { useSettingsStore } from '../features/settings/settings-store';
import { BridgeTileLayer } from './bridge-tile-layer';
import { areaOfCorners, describeArea, type AreaReport } from './drawn-area';
import { polygonOfLayer, wrapLon } from './drawn-polygon';
import { ensureGeoman } from './geoman';
import type { LayerState } from './layer-state';
import { createOfflineBasemap, type OfflineBasemap } from './offline-basemap';
import { watchTileHealth } from './tile-health';
import { keepWorldInView, WORLD_MAP_OPTIONS } from './world-view';

export interface BaseMapOptions {
  /** Also load the 1:50m and 1:10m shapes as the map is zoomed in (world-data.ts). */
  readonly detailed?: boolean;
  /** The layer control's choices (MapLayers.vue): basemap, place names, graticule. */
  readonly layers?: Readonly<Ref<LayerState>>;
}

export function useBaseMap(el: Readonly<Ref<HTMLElement | null>>, options: BaseMapOptions = {}) {
  const settings = useSettingsStore();
  const map = shallowRef<L.Map | null>(null);
  /** Why part of the map is missing: the basemap or the drawing tool could not be loaded. */
  const note = ref<string | null>(null);
  /** The online tiles fail (none of the view loaded): why, and that the offline map shows. */
  const tileNote = ref<string | null>(null);
  const drawing = ref(false);
  /** Geoman is loaded and drawing: clicks on the map add corners (before that they are lost). */
  const drawReady = ref(false);
  /** The area being drawn (live, corner by corner) or last drawn, with a size warning. */
  const area = ref<AreaReport | null>(null);
  let basemap: OfflineBasemap | null = null;
  let tiles: BridgeTileLayer | null = null;
  let resize: ResizeObserver | null = null;
  let stopTiles: (() => void) | null = null;
  let stopTileHealth: (() => void) | null = null;

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
    const m = L.map(el.value, {
      center: [20, 0],
      zoom: 2,
      minZoom: 1,
      maxZoom: 18,
      keyboard: true,
      // One world: no repeated copies, no empty band beyond the Mercator latitudes.
      ...WORLD_MAP_OPTIONS,
    });
    map.value = m;
    keepWorldInView(m);
    m.attributionControl.setPrefix(false);
    m.attributionControl.addAttribution(
      'Land, water and borders: Natural Earth; places: GeoNames (CC BY 4.0)',
    );
    basemap = createOfflineBasemap(m, {
      detailed: options.detailed ?? false,
      onError: (message) => (note.value = message),
    });
    // Geoman (loaded on first draw) has no toolbar here: the components have the buttons.
    m.on('pm:create pm:drawend', () => {
      drawing.value = false;
      drawReady.value = false;
    });
    // The area as corners are added (geoman's working line), then of the finished polygon.
    m.on('pm:drawstart', (e) => {
      const working = (e as unknown as { workingLayer?: L.Polyline }).workingLayer;
      working?.on('pm:vertexadded', () => {
        const corners = (working.getLatLngs() as L.LatLng[]).map(
          (p) => [wrapLon(p.lng), p.lat] as [number, number],
        );
        area.value = corners.length >= 3 ? describeArea(areaOfCorners(corners)) : null;
      });
    });
    m.on('pm:create', (e) => {
      const polygon = polygonOfLayer(e.layer);
      area.value = polygon ? describeArea(geodesicArea(polygon)) : null;
    });
    // Maps live in screens that are hidden and shown (v-show): Leaflet must re-measure.
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
    stopTiles?.();
    resize?.disconnect();
    map.value?.remove();
    map.value = null;
  });

  /** Start drawing a polygon (Esc cancels, as in geoman); the map fires `pm:create` with it. */
  async function startDraw(): Promise<void> {
    const m = map.value;
    if (!m) return;
    drawing.value = true;
    drawReady.value = false;
    area.value = null;
    try {
      const pm = await ensureGeoman(m);
      if (!drawing.value) return; // stopped while the tool was loading
      pm.enableDraw('Polygon', { snappable: false, tooltips: true });
      drawReady.value = true;
    } catch {
      drawing.value = false;
      note.value = 'The drawing tool could not be loaded.';
    }
  }

  function stopDraw(): void {
    map.value?.pm?.disableDraw();
    drawing.value = false;
    drawReady.value = false;
  }

  /** Forget the drawn area (the drawn shape was cleared). */
  function clearArea(): void {
    area.value = null;
  }

  return {
    map,
    note,
    tileNote,
    drawing,
    drawReady,
    area,
    clearArea,
    startDraw,
    stopDraw,
    /** The offline basemap's layers (layer control, tests). */
    basemap: () => basemap,
  };
}
