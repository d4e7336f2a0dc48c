/**
 * "Import a file…" in the order composer: the shared file preview (capabilities/file-import/), opened
 * from one item. The picked features become that item's area (one, or merged), or several
 * order items in one step: one per picked feature, named after it (the names come from the
 * attribute chosen in the preview), the other fields copied from the item it was opened from.
 */
import type { FeatureCollectionInput } from '@eo/domain';
import {
  baseName,
  defineFilePreviewStore,
  featureLabel,
  type Area,
  type FilePreviewStore,
} from '../../stores/file-preview-store';
import { useMapFileImportStore } from '../../capabilities/file-import/map-file-import';
import { useComposerStore } from './composer-store';
import { emptyDraft, type ItemDraft } from './order-item-draft';

/** An item's area as the composer keeps it: a FeatureCollection of one feature. */
export function areaCollection(area: Area, name: string): FeatureCollectionInput {
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: area, properties: { name } }],
  };
}

/** A named area to order: one picked feature, or several merged. */
export interface NamedArea {
  readonly name: string;
  readonly area: Area;
  /** Where it came from, as the item shows it ("parcels.kmz · Acker Nord"). */
  readonly source: string;
}

/** The picked features of a preview as areas to order, one per feature. */
export function pickedAreas(store: FilePreviewStore): NamedArea[] {
  const file = store.preview?.file ?? '';
  const single = store.preview?.features.length === 1;
  return store.pickedFeatures.map((f) => ({
    name: f.name,
    area: f.area as Area,
    source: single ? file : `${file} · ${f.name}`,
  }));
}

/** A new item with the fields of `from` (kind, project, dates, options), but its own key. */
function copyOf(from: ItemDraft): ItemDraft {
  const { key } = emptyDraft(from.kind);
  return { ...JSON.parse(JSON.stringify(from)), key, geometry: null, geometrySource: '' };
}

/**
 * One order item per area: the first goes into the item `key` (a typed name is kept), the rest
 * are new items after it, copies of it, each named after its area.
 */
export function itemsFromAreas(key: string, areas: readonly NamedArea[]): void {
  const composer = useComposerStore();
  const at = composer.items.findIndex((d) => d.key === key);
  if (at < 0 || areas.length === 0) return;
  const first = areas[0]!;
  const template = composer.items[at]!;
  const copies = areas.slice(1).map(() => copyOf(template));
  composer.importArea(key, areaCollection(first.area, first.name), first.source);
  composer.items.splice(at + 1, 0, ...copies);
  areas.slice(1).forEach((a, k) => {
    const d = copies[k]!;
    composer.setGeometry(d.key, areaCollection(a.area, a.name), a.source);
    composer.set(d.key, 'name', a.name);
  });
  composer.active = at;
}

/** The picked feature, or the picked ones merged, as the area of the item it was opened from. */
export function useForItem(store: FilePreviewStore): void {
  const preview = store.preview;
  const area = store.oneArea;
  const key = store.target;
  if (!preview || !area || key === null) return;
  const picked = store.pickedFeatures;
  const one = picked.length === 1 ? picked[0]! : null;
  const source =
    preview.features.length === 1
      ? preview.file
      : `${preview.file} · ${one ? one.name : `${picked.length} features merged`}`;
  const composer = useComposerStore();
  composer.importArea(key, areaCollection(area, one ? one.name : baseName(preview.file)), source);
  const n = composer.items.findIndex((d) => d.key === key) + 1;
  store.done = `The area of ${one ? featureLabel(one) : `${picked.length} features`} is item ${n}'s.`;
}

/** "One order item per feature". */
export function itemPerFeature(store: FilePreviewStore): void {
  const key = store.target;
  const areas = pickedAreas(store);
  if (key === null || areas.length === 0 || store.merge) return;
  itemsFromAreas(key, areas);
  store.done = `${areas.length} order item${areas.length === 1 ? '' : 's'} from ${store.preview?.file}: ${areas
    .map((a) => a.name)
    .join(', ')}.`;
}

/** One file at a time for the whole composer; a single area goes into its item at once. */
export const useOrderFileImportStore = defineFilePreviewStore('orderFileImport', {
  onSingleArea: useForItem,
});

/**
 * The features picked in a file dropped on the catalog map, as items of the order being
 * composed: into its current item when that is untouched, else from a new item on.
 */
export function orderFromMapFile(): void {
  const map = useMapFileImportStore();
  const file = map.preview?.file ?? '';
  const merged = map.merge ? map.oneArea : null;
  const areas: NamedArea[] = merged
    ? [
        {
          name: baseName(file),
          area: merged,
          source: `${file} · ${map.pickedFeatures.length} features merged`,
        },
      ]
    : pickedAreas(map);
  map.close();
  if (areas.length === 0) return;
  const composer = useComposerStore();
  const current = composer.items[composer.active];
  if (!current || current.geometry !== null || current.name.trim() !== '') composer.addItem();
  itemsFromAreas(composer.items[composer.active]!.key, areas);
}
