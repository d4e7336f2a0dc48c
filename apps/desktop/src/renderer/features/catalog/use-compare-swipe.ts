/**
 * "Compare two scenes" on the catalog map: two catalog records (from the basket) drawn with a
 * divider between them (map/compare-layer.ts). Their footprints come from the mirror
 * (`catalog.get`), not the search, so any two records in the basket compare, whatever is listed.
 * Call from a component's setup after the map is created by `useBaseMap`.
 */
import L from 'leaflet';
import { onBeforeUnmount, ref, watch, type Ref } from 'vue';
import { CompareLayer } from '../../map/compare-layer';
import { fitToBounds } from '../../map/world-view';
import { useBridge } from '../../stores/bridge-provider';
import { quicklookUrl } from '../../ui/quicklook-source';

type Geometry = { type?: unknown; coordinates?: unknown };

/** A footprint as the quicklook layers take it: lon/lat pairs of its outer ring(s), flat. */
export function ringOfGeometry(geometry: Geometry | null | undefined): number[] | null {
  const polygons =
    geometry?.type === 'Polygon'
      ? [geometry.coordinates]
      : geometry?.type === 'MultiPolygon'
        ? (geometry.coordinates as unknown[])
        : [];
  const out: number[] = [];
  for (const polygon of polygons) {
    const outer = Array.isArray(polygon) ? (polygon[0] as unknown) : null;
    if (!Array.isArray(outer)) continue;
    for (const p of outer) {
      if (Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1])) out.push(p[0], p[1]);
    }
  }
  return out.length >= 6 ? out : null;
}

export function useCompareSwipe(map: Ref<L.Map | null | undefined>) {
  /** The records compared: A left, B right; null when not comparing. */
  const pair = ref<readonly [string, string] | null>(null);
  const split = ref(0.5);
  /** Why the comparison cannot show (a record the mirror lost); null when it can. */
  const problem = ref<string | null>(null);
  let layer: CompareLayer | null = null;
  let asked = 0;

  async function compare(a: string, b: string): Promise<void> {
    const m = map.value;
    if (!m) return;
    const seq = ++asked;
    pair.value = [a, b];
    problem.value = null;
    layer ??= new CompareLayer(quicklookUrl);
    layer.setSplit(split.value);
    if (!m.hasLayer(layer)) layer.addTo(m);
    const bridge = useBridge();
    const records = await Promise.all([a, b].map((id) => bridge.call('catalog.get', { id })));
    if (seq !== asked || !layer) return;
    const rings = records.map((r) =>
      ringOfGeometry((r?.['details'] as { geometry?: Geometry })?.geometry),
    );
    const missing = [a, b].filter((_, i) => !rings[i]);
    if (missing.length > 0)
      problem.value = `No footprint of ${missing.join(' and ')} in the mirror.`;
    const ids = [a, b].filter((_, i) => rings[i]);
    layer.setFootprints(
      ids,
      rings.filter((r): r is number[] => r !== null),
    );
    layer.setPair([a, b]);
    const bounds = L.latLngBounds([]);
    for (const ring of rings) {
      for (let i = 0; ring && i + 1 < ring.length; i += 2) bounds.extend([ring[i + 1]!, ring[i]!]);
    }
    if (bounds.isValid()) fitToBounds(m, bounds);
  }

  function stop(): void {
    asked++;
    pair.value = null;
    problem.value = null;
    layer?.setPair(null);
    layer?.remove();
  }

  function moveSplit(to: number): void {
    split.value = Math.min(1, Math.max(0, Math.round(to * 1000) / 1000));
  }

  watch(split, (s) => layer?.setSplit(s));
  onBeforeUnmount(() => {
    layer?.remove();
    layer = null;
  });

  return { pair, split, problem, compare, stop, moveSplit, layer: () => layer };
}
