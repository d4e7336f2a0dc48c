/**
 * The catalog map's imagery overlay: a QuicklookLayer fed the search's footprints, shown or
 * hidden by the "Imagery" toggle (and while the compare swipe shows two of them), with its
 * opacity. Call from a component's setup after the map
 * is created by `useBaseMap` (its onMounted runs first).
 */
import type L from 'leaflet';
import { onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue';
import { QuicklookLayer } from '../../map/quicklook-layer';
import { useCatalogStore } from '../../stores/catalog-store';
import { picturesVersion } from '../../stores/pictures-arrival';
import { firstScreenUp } from '../../ui/first-screen';
import { quicklookUrl } from '../../ui/quicklook-source';

export function useQuicklookOverlay(map: Ref<L.Map | null | undefined>) {
  const catalog = useCatalogStore();
  const visible = ref(true);
  /** True while something else shows the pictures (the compare swipe): the layer is off. */
  const suspended = ref(false);
  const opacity = ref(0.85);
  /**
   * On the map once the first screen is up (or 3 s on): its pictures (150 on the demo data)
   * are fetched as it draws, and serving and decoding them took the CPU the first screen's
   * frames were waiting for.
   */
  const afterFirstScreen = firstScreenUp();
  let layer: QuicklookLayer | null = null;
  const stops: Array<() => void> = [];

  onMounted(() => {
    const m = map.value;
    if (!m) return;
    const l = new QuicklookLayer(quicklookUrl);
    layer = l;
    stops.push(
      // Given once it joins the map: working out every ring's box (100,000 records: ~15 ms)
      // fell between the search's answer and the first screen's paint, for pictures not drawn yet.
      watch(
        () => (afterFirstScreen.value ? catalog.footprints : null),
        (fp) => {
          if (fp) l.setFootprintSet(fp);
        },
        { immediate: true },
      ),
      watch(
        () => visible.value && !suspended.value && afterFirstScreen.value,
        (on) => {
          if (on) l.addTo(m);
          else l.remove();
        },
        { immediate: true },
      ),
      watch(opacity, (o) => l.setOpacity(o), { immediate: true }),
      // Pictures stored by the sync since: the ones missing so far are asked again.
      watch(picturesVersion, () => l.retryMissing()),
      watch(
        () => catalog.activeId,
        (id) => l.setTop(id),
        { immediate: true },
      ),
    );
  });
  onBeforeUnmount(() => {
    for (const stop of stops) stop();
    layer?.remove();
  });

  return { visible, suspended, opacity, layer: () => layer };
}
