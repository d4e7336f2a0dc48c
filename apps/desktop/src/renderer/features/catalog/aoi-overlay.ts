/**
 * The mirrored AOIs on the catalog map (the layer control's "AOIs"): outlines read with
 * `aois.list` when the layer is turned on, and again after a sync while it is on. Drawn under
 * the footprints' canvas pane, not interactive (the AOIs screen is where AOIs are worked on).
 */
import type { Aoi } from '@eo/domain';
import type { GeoJsonObject } from 'geojson';
import L from 'leaflet';
import { useBridge } from '../../stores/bridge-provider';

export const AOI_STYLE: L.PathOptions = {
  color: '#7c3aed',
  weight: 2,
  dashArray: '6 4',
  fillColor: '#7c3aed',
  fillOpacity: 0.06,
  interactive: false,
};

export interface AoiOverlay {
  /** Show (reading the AOIs again) or hide. Resolves once shown. */
  setVisible(on: boolean): Promise<void>;
  readonly count: number;
  remove(): void;
}

export function createAoiOverlay(map: L.Map): AoiOverlay {
  const group = L.layerGroup();
  let visible = false;
  let count = 0;
  let seq = 0;
  const stopSync = useBridge().on('sync.finished', () => {
    if (visible) void read();
  });

  async function read(): Promise<void> {
    const mine = ++seq;
    const aois: Aoi[] = await useBridge().call('aois.list', {});
    if (mine !== seq) return;
    group.clearLayers();
    count = 0;
    for (const a of aois) {
      if (!a.geometry) continue;
      L.geoJSON(a.geometry as unknown as GeoJsonObject, { style: AOI_STYLE }).addTo(group);
      count++;
    }
  }

  return {
    async setVisible(on) {
      visible = on;
      if (!on) {
        group.remove();
        return;
      }
      group.addTo(map);
      await read();
    },
    get count() {
      return count;
    },
    remove() {
      stopSync();
      group.remove();
    },
  };
}
