/**
 * A field file dropped on the catalog map: the shared preview (MapFileDrop.vue), and the picked
 * features handed on. "AOIs…" asks the AOIs screen, which takes the preview into the AOI form
 * (`aoisFromMapFile` in features/aois/file-import-store.ts: its shared fields, satellite,
 * provider, project, scenes, are the form's; "Queue N AOIs" there queues them); "New order"
 * asks the Orders screen, which opens the composer with one item per picked feature (or the
 * merged area; `orderFromMapFile` in features/orders/order-file-import.ts). The screen takes
 * the features and closes this preview: the capability knows no screen's state.
 */
import { useHandoffStore } from '../../stores/handoff';
import { defineFilePreviewStore } from '../../stores/file-preview-store';

export const useMapFileImportStore = defineFilePreviewStore('mapFileImport');

/** The picked features to the AOI form; the AOIs screen opens it and takes them. */
export function aoisFromFile(): void {
  const map = useMapFileImportStore();
  if (!map.preview || map.pickedFeatures.length === 0) return;
  useHandoffStore().request('aois-from-file');
}

/** A new order of the picked features; the Orders screen opens the composer with them. */
export function orderFromFile(): void {
  const map = useMapFileImportStore();
  if (!map.preview || map.pickedFeatures.length === 0) return;
  useHandoffStore().request('order-from-file');
}
