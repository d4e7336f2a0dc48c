/**
 * "Import a file…" on the AOI form: the shared file preview (capabilities/file-import/) and what
 * the AOI form does with the picked features: the form's area (one, or several merged) or one
 * queued AOI each (named after the feature, the form's other fields shared). All or nothing: a
 * bad file, a feature that is not an area or an AOI the check refuses, and nothing is queued.
 * A file dropped on the catalog map comes here too (`aoisFromMapFile`, when the screen takes
 * the hand-off).
 */
import {
  baseName,
  defineFilePreviewStore,
  featureLabel as label,
  type Area,
  type FilePreviewStore,
} from '../../stores/file-preview-store';
import type { PreviewFeatureView } from '../../../shared/contract';
import { useMapFileImportStore } from '../../capabilities/file-import/map-file-import';
import { contractIssues } from '../../forms/field-issues';
import { readableError } from '../../stores/errors';
import { useOutboxStore } from '../../stores/outbox-store';
import { useAoiFormStore, validateAoiDraft, type AoiField } from './aoi-form-store';

const FIELD_LABELS: Partial<Record<AoiField, string>> = {
  satellite_id: 'satellite',
  project_id: 'project',
  item_ids: 'archive scene ids',
};

/** The picked feature (or all of them merged) as the form's area; its name if none yet. */
export function useInForm(store: FilePreviewStore): void {
  const picked = store.pickedFeatures;
  const preview = store.preview;
  const area = store.oneArea;
  if (!preview || !area) return;
  const form = useAoiFormStore();
  const one = picked.length === 1 ? picked[0]! : null;
  const source =
    preview.features.length === 1
      ? preview.file
      : `${preview.file} · ${one ? one.name : `${picked.length} features merged`}`;
  form.setGeometry(area, source);
  if (!form.draft.name.trim()) form.set('name', one ? one.name : baseName(preview.file));
  store.done = `The area of ${one ? label(one) : `${picked.length} features`} is in the form.`;
}

/** One area and nothing else in the file: nothing to pick, it is the form's area at once. */
export const useFileImportStore = defineFilePreviewStore('aoiFileImport', {
  onSingleArea: useInForm,
});

/**
 * The features picked in a file dropped on the catalog map, into the form's "Import a file…"
 * (one is the form's area at once, as are several merged); the map's preview closes.
 */
export function aoisFromMapFile(): void {
  const map = useMapFileImportStore();
  if (!map.preview || map.pickedFeatures.length === 0) return;
  const aoi = useFileImportStore();
  aoi.adopt(map);
  if (aoi.pickedFeatures.length === 1 || aoi.merge) useInForm(aoi);
  map.close();
}

/** The backend's refusal of a batch, said of the feature at fault (`creates.N.input.…`). */
function refusal(err: unknown, features: readonly PreviewFeatureView[]): string {
  const issue = contractIssues(err)[0];
  const [, k, rest] = /^creates\.(\d+)\.(input(?:\..*)?)$/.exec(issue?.path ?? '') ?? [];
  const f = k === undefined ? undefined : features[Number(k)];
  if (!issue || !f) return readableError(err).message;
  return `${label(f)}: ${rest}: ${issue.message}`;
}

/**
 * One AOI per picked feature, named after it, with the form's other fields; every one is
 * checked here first, then all are queued in one call (`outbox.enqueueAll`): all or nothing.
 */
export async function queueEach(store: FilePreviewStore): Promise<void> {
  const picked = store.pickedFeatures;
  if (!store.preview || picked.length === 0 || store.busy) return;
  const form = useAoiFormStore();
  store.error = null;
  store.done = null;
  const checked = picked.map((f) => ({
    f,
    r: validateAoiDraft({ ...form.draft, name: f.name, geometry: f.area as Area }),
  }));
  const problems: string[] = [];
  const shared = new Set<string>();
  for (const { f, r } of checked) {
    if (r.ok) continue;
    for (const [field, message] of Object.entries(r.errors)) {
      if (field === 'name' || field === 'geometry') problems.push(`${label(f)}: ${message}`);
      else shared.add(FIELD_LABELS[field as AoiField] ?? field);
    }
  }
  if (shared.size > 0) {
    form.flow.showAll = true; // the form shows what is missing beside its fields
    problems.unshift(`Fill in the form first (${[...shared].join(', ')}).`);
  }
  if (problems.length > 0) {
    store.error = `Nothing queued. ${problems.join(' ')}`;
    return;
  }
  const ready = checked.flatMap(({ f, r }) => (r.ok ? [{ f, input: r.value }] : []));
  store.busy = true;
  try {
    try {
      // One call, all or nothing: the backend queues every AOI or none.
      await useOutboxStore().enqueueAll(ready.map(({ input }) => ({ kind: 'aoi', input })));
    } catch (err) {
      store.error = `Nothing queued. ${refusal(
        err,
        ready.map(({ f }) => f),
      )}`;
      return;
    }
    store.done = `Queued ${picked.length} AOI${picked.length === 1 ? '' : 's'} (${picked
      .map((f) => f.name)
      .join(', ')}); they will be submitted from the Outbox.`;
  } finally {
    store.busy = false;
  }
}
