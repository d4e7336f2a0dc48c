/**
 * A rectangle dragged out with the pointer (press a corner, drag, release on the opposite one),
 * beside geoman's click-then-click rectangle. While the rectangle tool is ready, a press on the
 * map holds the map still (Leaflet's dragging is off until the release) so the drag draws instead
 * of panning; a press released without moving is left to geoman (its first corner), so
 * click-click keeps working. The click the browser sends after a drag is swallowed: it would
 * otherwise reach geoman (a new rectangle) or the map's own click (selecting a footprint).
 */
import L from 'leaflet';

/** Below this many pixels of movement a press is a click, not a drag. */
const DRAG_PX = 4;

export interface RectangleDragHooks {
  /** The rectangle tool is drawing and no first corner was clicked yet. */
  readonly active: () => boolean;
  /** The rectangle as it is dragged out (for the live area). */
  readonly onLive: (layer: L.Rectangle) => void;
  /** Released: the rectangle's bounds (the preview is removed). */
  readonly onDone: (bounds: L.LatLngBounds) => void;
}

/** Listen for drags on the map's container; returns the function that stops listening. */
export function installRectangleDrag(map: L.Map, hooks: RectangleDragHooks): () => void {
  const container = map.getContainer();
  let start: { latlng: L.LatLng; x: number; y: number; id: number } | null = null;
  let preview: L.Rectangle | null = null;
  let draggingWasOn = false;

  function end(): void {
    document.removeEventListener('pointermove', onMove, true);
    document.removeEventListener('pointerup', onUp, true);
    document.removeEventListener('pointercancel', onCancel, true);
    if (draggingWasOn) map.dragging.enable();
    draggingWasOn = false;
    preview?.remove();
    preview = null;
    start = null;
  }

  function onDown(e: PointerEvent): void {
    if (e.button !== 0 || start || !hooks.active()) return;
    // A press on the map's own buttons (zoom, layers) is theirs.
    if ((e.target as Element | null)?.closest?.('.leaflet-control')) return;
    // Off before Leaflet's own press handler runs (this listener captures), so no pan starts.
    draggingWasOn = map.dragging.enabled();
    if (draggingWasOn) map.dragging.disable();
    start = { latlng: map.mouseEventToLatLng(e), x: e.clientX, y: e.clientY, id: e.pointerId };
    document.addEventListener('pointermove', onMove, true);
    document.addEventListener('pointerup', onUp, true);
    document.addEventListener('pointercancel', onCancel, true);
  }

  function onMove(e: PointerEvent): void {
    if (!start || e.pointerId !== start.id) return;
    if (!preview && Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_PX) return;
    e.preventDefault(); // no text selection while dragging out
    const bounds = L.latLngBounds(start.latlng, map.mouseEventToLatLng(e));
    if (preview) preview.setBounds(bounds);
    else preview = L.rectangle(bounds, { interactive: false }).addTo(map);
    hooks.onLive(preview);
  }

  function onUp(e: PointerEvent): void {
    if (!start || e.pointerId !== start.id) return;
    const dragged = preview;
    const bounds = dragged && L.latLngBounds(start.latlng, map.mouseEventToLatLng(e));
    end();
    if (!bounds) return; // a click: geoman places its first corner
    swallowNextClick();
    hooks.onDone(bounds);
  }

  function onCancel(e: PointerEvent): void {
    if (start && e.pointerId === start.id) end();
  }

  /** The click that follows the release of a drag (dispatched in the same task, if at all). */
  function swallowNextClick(): void {
    const swallow = (e: Event) => e.stopImmediatePropagation();
    container.addEventListener('click', swallow, { capture: true, once: true });
    setTimeout(() => container.removeEventListener('click', swallow, true), 0);
  }

  container.addEventListener('pointerdown', onDown, true);
  return () => {
    end();
    container.removeEventListener('pointerdown', onDown, true);
  };
}
