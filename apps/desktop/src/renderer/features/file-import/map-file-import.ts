/**
 * A field file dropped on the catalog map: the shared preview (MapFileDrop.vue), and the picked
 * features handed on. "AOIs…" hands the preview to the AOI form (its shared fields, satellite,
 * provider, project, scenes, are the form's; "Queue N AOIs" there queues them); "New order"
 * opens the composer with one item per picked feature (or the merged area), taken by the
 * Orders screen (`orderFromMapFile` in ../orders/order-file-import.ts).
 */
import { useHandoffStore } from '../../stores/handoff';
import { useFileImportStore, useInForm } from '../aois/file-import-store';
import { defineFilePreviewStore } from '../../stores/file-preview-store';

export const useMapFileImportStore = defineFilePreviewStore('mapFileImport');

/** The picked features to the AOI form (one is its area at once); the AOIs screen opens it. */
export function aoisFromMapFile(): void {
  const map = useMapFileImportStore();
  if (!map.preview || map.pickedFeatures.length === 0) return;
  const aoi = useFileImportStore();
  aoi.adopt(map);
  if (aoi.pickedFeatures.length === 1 || aoi.merge) useInForm(aoi);
  map.close();
  useHandoffStore().request('aois-from-file');
}

/** A new order of the picked features; the Orders screen opens the composer with them. */
export function orderFromFile(): void {
  const map = useMapFileImportStore();
  if (!map.preview || map.pickedFeatures.length === 0) return;
  useHandoffStore().request('order-from-file');
}
