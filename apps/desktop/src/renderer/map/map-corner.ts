/**
 * A Leaflet control with nothing in it, for a Vue component teleported into it: Leaflet stacks
 * the controls of a corner, so one in the bottom-right sits above the attribution however many
 * lines that wraps to (an absolutely placed box overlapped it on a narrow map). Clicks, drags
 * and the wheel on it stay off the map.
 */
import L from 'leaflet';
import { onBeforeUnmount, ref, watch, type Ref } from 'vue';

export function useMapCorner(
  map: Readonly<Ref<L.Map | null>>,
  position: L.ControlPosition,
  className: string,
): Ref<HTMLElement | null> {
  const container = ref<HTMLElement | null>(null);
  let control: L.Control | null = null;
  const stop = watch(
    map,
    (m) => {
      control?.remove();
      control = null;
      container.value = null;
      if (!m) return;
      const Corner = L.Control.extend({
        onAdd() {
          const div = L.DomUtil.create('div', className);
          L.DomEvent.disableClickPropagation(div);
          L.DomEvent.disableScrollPropagation(div);
          return div;
        },
      });
      control = new Corner({ position }).addTo(m);
      container.value = control.getContainer() ?? null;
    },
    { immediate: true },
  );
  onBeforeUnmount(() => {
    stop();
    control?.remove();
  });
  return container;
}
