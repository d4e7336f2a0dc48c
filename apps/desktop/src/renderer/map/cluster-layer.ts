/**
 * The cluster markers over the footprint canvas (`footprint-clusters.ts`): a count in a circle
 * where footprints too small to see bunch together at world zoom; clicking one zooms in to its
 * footprints. Recomputed when the view settles or the footprints change. Markers do not pass
 * the pointer on to the map, so a click on a cluster picks no footprint under it. For the
 * keyboard the map is one Tab stop (issue 26: 32 clusters in the Tab order put the results 94
 * Tabs away): with the map focused, arrow keys bring a cluster near the centre and Enter zooms
 * in on the cluster nearest the centre (`nearestCluster`).
 */
import L from 'leaflet';
import { clusterFootprints, type Cluster } from './footprint-clusters';
import { unmercX, unmercY, worldScale } from './mercator';
import { NextFrame } from './next-frame';
import { fitToBounds } from './world-view';

/** A cluster's accessible name (and tooltip). */
export function clusterName(count: number): string {
  return `${count} records here; zoom in`;
}

/** The cluster nearest the view's centre (pixel positions within the view), or null. */
export function nearestCluster(
  clusters: readonly Cluster[],
  width: number,
  height: number,
): Cluster | null {
  let best: Cluster | null = null;
  let bestD = Infinity;
  for (const c of clusters) {
    const d = (c.x - width / 2) ** 2 + (c.y - height / 2) ** 2;
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

export class ClusterLayer extends L.LayerGroup {
  private boxes: Float64Array = new Float64Array(0);
  /** The clusters shown (tests, the e2e check). */
  clusters: Cluster[] = [];
  /** A refresh for new footprints, in the next frame: a fit to them (moveend) refreshes first. */
  private readonly soon = new NextFrame(() => this.refresh());

  /**
   * The footprints' boxes in world units (x0, y0, x1, y1 each): the footprint layer's own
   * (`FootprintLayer.boxes`), projected once for both layers.
   */
  setBoxes(boxes: Float64Array): void {
    this.boxes = boxes;
    if (this._map) this.soon.request();
  }

  override onAdd(map: L.Map): this {
    super.onAdd(map);
    // Not zoomend: Leaflet fires it only together with a moveend, and each one clustered every
    // footprint again.
    map.on('moveend resize', this.refresh, this);
    map.getContainer().addEventListener('keydown', this.onKey);
    this.refresh();
    return this;
  }

  override onRemove(map: L.Map): this {
    this.soon.cancel();
    map.off('moveend resize', this.refresh, this);
    map.getContainer().removeEventListener('keydown', this.onKey);
    return super.onRemove(map);
  }

  /** Enter on the focused map (not on a control in it): in on the cluster nearest the centre. */
  private readonly onKey = (e: KeyboardEvent): void => {
    const map = this._map as L.Map | undefined;
    if (!map || e.key !== 'Enter' || e.target !== map.getContainer()) return;
    const size = map.getSize();
    const c = nearestCluster(this.clusters, size.x, size.y);
    if (!c) return;
    e.preventDefault();
    this.zoomTo(map, c);
  };

  private zoomTo(map: L.Map, c: Cluster): void {
    const [x0, y0, x1, y1] = c.box;
    const bounds = L.latLngBounds([unmercY(y1), unmercX(x0)], [unmercY(y0), unmercX(x1)]);
    const before = map.getZoom();
    fitToBounds(map, bounds);
    // Footprints stacked on one spot fit at the zoom they are at: zoom in all the same.
    if (map.getZoom() <= before) map.setView(bounds.getCenter(), before + 2, { animate: false });
  }

  refresh(): void {
    this.soon.cancel();
    const map = this._map as L.Map | undefined;
    this.clearLayers();
    if (!map) return;
    const size = map.getSize();
    const origin = map.getPixelBounds().min ?? L.point(0, 0);
    this.clusters = clusterFootprints(this.boxes, {
      scale: worldScale(map.getZoom()),
      originX: origin.x,
      originY: origin.y,
      width: size.x,
      height: size.y,
    });
    for (const c of this.clusters) this.addLayer(this.marker(map, c, origin));
  }

  private marker(map: L.Map, c: Cluster, origin: L.Point): L.Marker {
    const at = map.unproject(L.point(origin.x + c.x, origin.y + c.y), map.getZoom());
    const size = c.count >= 1000 ? 44 : c.count >= 100 ? 38 : 32;
    const html = document.createElement('span');
    html.textContent = String(c.count);
    html.setAttribute('aria-hidden', 'true');
    const name = clusterName(c.count);
    const marker = L.marker(at, {
      icon: L.divIcon({ html, className: 'eo-cluster', iconSize: [size, size] }),
      keyboard: false,
      title: name,
    });
    marker.on('click', () => this.zoomTo(map, c));
    // Not a Tab stop (the map is one, Enter there zooms in): read by its title on hover.
    marker.on('add', () => marker.getElement()?.setAttribute('aria-hidden', 'true'));
    return marker;
  }
}
