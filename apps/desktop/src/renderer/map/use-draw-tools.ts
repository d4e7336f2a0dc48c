/**
 * Drawing an area on any map of the app (the catalog's search area, the AOI form, the order
 * composer), written once and used by `useBaseMap`: a polygon or a rectangle with geoman (the
 * rectangle clicked corner then corner, or dragged out: `rectangle-drag.ts`), a circle around a
 * clicked point with the radius typed beside the buttons, the area in km² and ha live while
 * drawing (corner by corner, as the rectangle is dragged out, as the radius changes)
 * and a warning on unusual sizes (`drawn-area.ts`). The finished shape stays on the map with its
 * corners (or the circle's centre and radius) draggable; every change is handed to `onShape`
 * as the GeoJSON Polygon the requests carry. A typed or pasted area (`placeTyped`) is kept the
 * same way.
 */
import { geodesicArea, type Polygon } from '@eo/domain';
import L from 'leaflet';
import { ref, watch, type ShallowRef } from 'vue';
import { areaOfCorners, describeArea, type AreaReport } from './drawn-area';
import { wrapLon } from './drawn-polygon';
import { circlePolygon, polygonOfDrawn, readRadiusKm, type DrawShape } from './draw-shapes';
import { ensureGeoman } from './geoman';
import { installRectangleDrag } from './rectangle-drag';

/** A circle's area (on the sphere it does not depend on where its centre is). */
function circleArea(radiusM: number): AreaReport {
  return describeArea(geodesicArea(circlePolygon({ lat: 0, lon: 0 }, radiusM)));
}

/**
 * The area while geoman draws: as corners are added (its working line), or as a rectangle is
 * resized by the pointer (geoman says so once it has resized it). Geoman says so on every move
 * before the first corner too, of a rectangle not yet on the map: that one has no area (and
 * would hide a dragged-out one's).
 */
function followDrawnArea(
  m: L.Map,
  setArea: (a: AreaReport | null) => void,
  liveArea: (layer: L.Layer) => void,
): void {
  m.on('pm:drawstart', (e) => {
    const line = (e as unknown as { workingLayer?: L.Polyline }).workingLayer;
    line?.on('pm:vertexadded', () => {
      const corners = (line.getLatLngs() as L.LatLng[]).map(
        (p) => [wrapLon(p.lng), p.lat] as [number, number],
      );
      setArea(corners.length >= 3 ? describeArea(areaOfCorners(corners)) : null);
    });
    if (line instanceof L.Rectangle)
      line.on('pm:change', () => void (m.hasLayer(line) && liveArea(line)));
  });
}

type PmLayer = L.Layer & { pm?: { enable: (o?: object) => void; disable: () => void } };

export function useDrawTools(
  map: Readonly<ShallowRef<L.Map | null>>,
  onError: (m: string) => void,
) {
  const drawing = ref(false);
  /** Geoman is loaded and drawing: clicks on the map add corners (before that they are lost). */
  const drawReady = ref(false);
  /** The shape being drawn (or last chosen). */
  const shape = ref<DrawShape>('Polygon');
  /** The circle's radius in km, as typed. */
  const radiusKm = ref<string | number>(1);
  const radiusError = ref<string | null>(null);
  /** The area being drawn (live) or last drawn, with a size warning. */
  const area = ref<AreaReport | null>(null);
  /** A drawn shape is on the map and can be edited. */
  const hasDrawn = ref(false);
  let drawn: PmLayer | null = null;
  let placeCircle: ((e: L.LeafletMouseEvent) => void) | null = null;
  /** The rectangle's first corner was clicked (the next press finishes it, not a drag). */
  let cornerClicked = false;
  let listener: ((polygon: Polygon) => void) | null = null;

  function report(layer: L.Layer): void {
    const polygon = polygonOfDrawn(layer);
    area.value = polygon ? describeArea(geodesicArea(polygon)) : null;
    if (polygon) listener?.(polygon);
  }

  function liveArea(layer: L.Layer): void {
    const polygon = polygonOfDrawn(layer);
    if (polygon) area.value = describeArea(geodesicArea(polygon));
  }

  function radiusM(): number | null {
    const read = readRadiusKm(radiusKm.value);
    radiusError.value = read.ok ? null : read.error;
    return read.ok ? read.km * 1000 : null;
  }

  /** Keep a finished shape on the map, editable, and hand it over. */
  function keep(layer: PmLayer): void {
    const m = map.value;
    if (!m) return;
    if (drawn && drawn !== layer) drawn.remove();
    drawn = layer;
    hasDrawn.value = true;
    if (!m.hasLayer(layer)) layer.addTo(m);
    layer.on('pm:markerdrag pm:change', () => liveArea(layer));
    layer.on('pm:edit', () => report(layer));
    report(layer);
    void ensureGeoman(m)
      .then(() => {
        if (drawn !== layer) return;
        const PM = (L as unknown as { PM?: { reInitLayer?: (l: L.Layer) => void } }).PM;
        if (!layer.pm) PM?.reInitLayer?.(layer);
        layer.pm?.enable({ allowSelfIntersection: false, snappable: false });
      })
      .catch(() => onError('The drawing tool could not be loaded: the shape cannot be edited.'));
  }

  function install(m: L.Map): void {
    m.on('pm:create pm:drawend', () => {
      drawing.value = false;
      drawReady.value = false;
    });
    followDrawnArea(m, (a) => (area.value = a), liveArea);
    m.on('pm:create', (e) => keep(e.layer as PmLayer));
    m.on('click', () => {
      if (drawReady.value && shape.value === 'Rectangle') cornerClicked = true;
    });
    const stopDrag = installRectangleDrag(m, {
      active: () => drawReady.value && shape.value === 'Rectangle' && !cornerClicked,
      onLive: liveArea,
      onDone: (bounds) => {
        stopDraw();
        keep(L.rectangle(bounds) as PmLayer);
      },
    });
    m.once('unload', stopDrag);
    m.on('keydown', (e) => {
      if ((e as L.LeafletKeyboardEvent).originalEvent.key === 'Escape' && placeCircle) stopDraw();
    });
    // A new radius re-sizes the circle drawn (or previews the area of the one to be placed).
    watch(radiusKm, () => {
      const r = radiusM();
      if (r === null) return;
      if (drawn instanceof L.Circle) {
        drawn.setRadius(r);
        report(drawn);
      } else if (placeCircle) {
        area.value = circleArea(r);
      }
    });
  }

  /** Start drawing (Esc cancels); the finished shape goes to `onShape`. */
  async function startDraw(kind: DrawShape = 'Polygon'): Promise<void> {
    const m = map.value;
    if (!m) return;
    stopDraw();
    shape.value = kind;
    area.value = null;
    if (kind === 'Circle') {
      const r = radiusM();
      if (r === null) return;
      drawing.value = true;
      drawReady.value = true;
      // The size is known before the centre: said at once.
      area.value = circleArea(r);
      placeCircle = (e) => {
        placeCircle = null;
        drawing.value = false;
        drawReady.value = false;
        const radius = radiusM();
        if (radius !== null) keep(L.circle(e.latlng, { radius }) as PmLayer);
      };
      m.once('click', placeCircle);
      return;
    }
    drawing.value = true;
    drawReady.value = false;
    try {
      const pm = await ensureGeoman(m);
      if (!drawing.value || shape.value !== kind) return; // stopped while the tool was loading
      pm.enableDraw(kind, { snappable: false, tooltips: true });
      drawReady.value = true;
    } catch {
      drawing.value = false;
      onError('The drawing tool could not be loaded.');
    }
  }

  function stopDraw(): void {
    const m = map.value;
    m?.pm?.disableDraw();
    if (placeCircle) m?.off('click', placeCircle);
    placeCircle = null;
    cornerClicked = false;
    drawing.value = false;
    drawReady.value = false;
  }

  /** A circle of the radius set around a position ("Near me" as a search area). */
  function circleAround(at: { readonly lat: number; readonly lon: number }): void {
    stopDraw();
    const r = radiusM();
    if (r === null) return;
    shape.value = 'Circle';
    keep(L.circle(L.latLng(at.lat, at.lon), { radius: r }) as PmLayer);
  }

  /**
   * An area typed or pasted (DrawTools' "Type…"): kept like a drawn polygon (its corners
   * draggable, handed to `onShape`), and the map moved to it.
   */
  function placeTyped(polygon: Polygon): void {
    stopDraw();
    shape.value = 'Polygon';
    const rings = polygon.coordinates.map((ring) =>
      ring.slice(0, -1).map(([lon, lat]) => L.latLng(lat!, lon!)),
    );
    const layer = L.polygon(rings) as PmLayer & L.Polygon;
    keep(layer);
    map.value?.fitBounds(layer.getBounds(), { padding: [24, 24], maxZoom: 16 });
  }

  /** Remove the drawn shape (the filter or form no longer has it). */
  function clearDrawn(): void {
    stopDraw();
    drawn?.remove();
    drawn = null;
    hasDrawn.value = false;
    area.value = null;
  }

  return {
    drawing,
    drawReady,
    shape,
    radiusKm,
    radiusError,
    area,
    hasDrawn,
    install,
    startDraw,
    stopDraw,
    circleAround,
    placeTyped,
    clearDrawn,
    /** Forget the shown area (the drawn shape was cleared elsewhere). */
    clearArea: () => void (area.value = null),
    /** Called with each finished or edited shape. */
    onShape: (fn: (polygon: Polygon) => void) => void (listener = fn),
    /** For tests: the drawn layer. */
    drawnLayer: () => drawn,
  };
}
