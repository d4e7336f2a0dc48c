/**
 * Which layers a map shows (the catalog map's layer control, `MapLayers.vue`), remembered in
 * localStorage per map: the basemap (the offline one, or the online tiles when a tile URL is
 * configured), offline place names, the graticule, footprints, AOIs. A stored value that is not
 * a layer state (an older shape, edited by hand) gives way to the defaults, part by part.
 */
import { ref, watch, type Ref } from 'vue';
import { readStored, writeStored } from '../local-storage';

export interface LayerState {
  basemap: 'offline' | 'online';
  places: boolean;
  graticule: boolean;
  footprints: boolean;
  aois: boolean;
}

export const DEFAULT_LAYERS: Readonly<LayerState> = {
  basemap: 'online',
  places: true,
  graticule: true,
  footprints: true,
  aois: false,
};

export function readLayerState(raw: string | null): LayerState {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the defaults
  }
  const bool = (key: keyof LayerState): boolean =>
    typeof stored[key] === 'boolean' ? (stored[key] as boolean) : (DEFAULT_LAYERS[key] as boolean);
  return {
    basemap: stored['basemap'] === 'offline' ? 'offline' : 'online',
    places: bool('places'),
    graticule: bool('graticule'),
    footprints: bool('footprints'),
    aois: bool('aois'),
  };
}

/** The layer state stored under `key`, saved back on every change. */
export function useLayerState(key: string): Ref<LayerState> {
  const state = ref<LayerState>(readLayerState(readStored(key)));
  watch(state, (s) => writeStored(key, JSON.stringify(s)), { deep: true });
  return state;
}

/** The layer control's props (MapLayers.vue, which hands them on to MapLayersPanel.vue). */
export interface LayerControlProps {
  /** A tile URL is configured in settings (else "Online tiles" cannot be chosen). */
  onlineAvailable: boolean;
  /** Overlays this map has, in the order shown. */
  overlays: ReadonlyArray<{ key: 'footprints' | 'aois'; label: string }>;
}
