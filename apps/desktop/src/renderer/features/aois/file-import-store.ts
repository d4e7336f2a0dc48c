/**
 * "Import a file…" on the AOI form: a field file (KML, KMZ, GPX, zipped Shapefile, GeoPackage,
 * GeoJSON, CSV) is sent to the backend as bytes (`files.preview`: read there by @eo/formats,
 * never here), its preview lists the features with their repairs and problems, and the picked
 * ones become the form's area (one, or several merged) or one queued AOI each (named after the
 * feature, the form's other fields shared). All or nothing: a bad file, a feature that is not
 * an area or an AOI the check refuses, and nothing is queued.
 */
import type { MultiPolygon, Polygon } from '@eo/domain';
import { defineStore } from 'pinia';
import {
  IMPORT_FILE_EXTENSIONS,
  MAX_IMPORT_FILE_BYTES,
  type FilePreview,
  type PreviewFeatureView,
} from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { useOutboxStore } from '../outbox/outbox-store';
import { useAoiFormStore, validateAoiDraft, type AoiField } from './aoi-form-store';

type Area = Polygon | MultiPolygon;

/** Base64 of a file's bytes, in slices (one `String.fromCharCode` of 50 MB overflows the stack). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Why a picked or dropped file is not even sent to the backend, or null. */
export function fileRefusal(file: { name: string; size: number }): string | null {
  const lower = file.name.toLowerCase();
  if (!IMPORT_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext)))
    return `${file.name}: not a field file this app reads (${IMPORT_FILE_EXTENSIONS.join(' ')}).`;
  if (file.size > MAX_IMPORT_FILE_BYTES)
    return `${file.name}: ${Math.ceil(file.size / 2 ** 20)} MB; at most ${MAX_IMPORT_FILE_BYTES / 2 ** 20} MB.`;
  return null;
}

/** Areas side by side in one MultiPolygon (not a geometric union), as @eo/formats' mergeAreas. */
export function mergedArea(areas: readonly Area[]): Area {
  if (areas.length === 1) return areas[0]!;
  return {
    type: 'MultiPolygon',
    coordinates: areas.flatMap((a) => (a.type === 'Polygon' ? [a.coordinates] : a.coordinates)),
  };
}

const label = (f: PreviewFeatureView) => `feature ${f.index} (${f.name})`;
const baseName = (file: string) => file.replace(/\.[^.]*$/, '');
const FIELD_LABELS: Partial<Record<AoiField, string>> = {
  satellite_id: 'satellite',
  project_id: 'project',
  item_ids: 'archive scene ids',
};

/**
 * The file last previewed, to read it again named by another attribute. Outside the store's
 * state: tens of MB of base64 are not for devtools or reactivity.
 */
let lastFile: { name: string; base64: string } | null = null;

export const useFileImportStore = defineStore('aoiFileImport', {
  state: () => ({
    /** The file being read (its name), while the backend reads it. */
    reading: null as string | null,
    preview: null as FilePreview | null,
    /** Indices (1-based, as the preview numbers them) of the picked features. */
    picked: [] as number[],
    merge: false,
    /** The attribute the names come from (null: name/title/id…, as @eo/formats picks). */
    nameField: null as string | null,
    /** Which file, which feature, what is wrong; nothing was queued. */
    error: null as string | null,
    queueing: false,
    done: null as string | null,
  }),
  getters: {
    pickedSet: (s): ReadonlySet<number> => new Set(s.picked),
    pickedFeatures(s): PreviewFeatureView[] {
      const picked = this.pickedSet;
      return (s.preview?.features ?? []).filter((f) => picked.has(f.index));
    },
    usable(s): PreviewFeatureView[] {
      return (s.preview?.features ?? []).filter((f) => f.area !== null);
    },
    /** The attributes a name can come from (of the first features: enough to offer them). */
    attributeNames(s): string[] {
      const names = new Set<string>();
      for (const f of (s.preview?.features ?? []).slice(0, 500))
        for (const k of Object.keys(f.properties)) names.add(k);
      return [...names];
    },
  },
  actions: {
    async read(file: File): Promise<void> {
      this.close();
      const refused = fileRefusal(file);
      if (refused) {
        this.error = refused;
        return;
      }
      this.reading = file.name;
      try {
        const base64 = base64Of(new Uint8Array(await file.arrayBuffer()));
        const preview = await useBridge().call('files.preview', { name: file.name, base64 });
        if (this.reading !== file.name) return; // closed or another file picked meanwhile
        lastFile = { name: file.name, base64 };
        this.preview = preview;
        this.picked = this.usable.map((f) => f.index);
        if (preview.features.length === 0) this.error = `${file.name}: no features in it.`;
        // One area and nothing else: nothing to pick, it is the form's area at once.
        else if (preview.features.length === 1 && this.usable.length === 1) this.useInForm();
      } catch (err) {
        if (this.reading === file.name) this.error = readableError(err).message;
      } finally {
        if (this.reading === file.name) this.reading = null;
      }
    },

    /** The features named from another attribute (`null`: the default name/title/id order). */
    async nameBy(field: string | null): Promise<void> {
      const file = lastFile;
      if (!file || !this.preview) return;
      this.nameField = field;
      this.reading = file.name;
      try {
        const preview = await useBridge().call('files.preview', {
          ...file,
          ...(field ? { nameField: field } : {}),
        });
        if (this.reading !== file.name || lastFile !== file) return;
        this.preview = preview; // same file, same features: the picks stay
      } catch (err) {
        this.error = readableError(err).message;
      } finally {
        if (this.reading === file.name) this.reading = null;
      }
    },

    toggle(index: number): void {
      const f = this.preview?.features.find((x) => x.index === index);
      if (!f || f.area === null) return;
      this.picked = this.pickedSet.has(index)
        ? this.picked.filter((i) => i !== index)
        : [...this.picked, index].sort((a, b) => a - b);
      this.done = null;
    },

    /** The picked feature (or all of them merged) as the form's area; its name if none yet. */
    useInForm(): void {
      const picked = this.pickedFeatures;
      const preview = this.preview;
      if (!preview || picked.length === 0 || (picked.length > 1 && !this.merge)) return;
      const form = useAoiFormStore();
      const one = picked.length === 1 ? picked[0]! : null;
      const source =
        preview.features.length === 1
          ? preview.file
          : `${preview.file} · ${one ? one.name : `${picked.length} features merged`}`;
      form.setGeometry(mergedArea(picked.map((f) => f.area as Area)), source);
      if (!form.draft.name.trim()) form.set('name', one ? one.name : baseName(preview.file));
      this.done = `The area of ${one ? label(one) : `${picked.length} features`} is in the form.`;
    },

    /**
     * One AOI per picked feature, named after it, with the form's other fields; every one is
     * checked before any is queued, and the ones queued are cancelled if a later one is refused.
     */
    async queueEach(): Promise<void> {
      const picked = this.pickedFeatures;
      if (!this.preview || picked.length === 0 || this.queueing) return;
      const form = useAoiFormStore();
      this.error = null;
      this.done = null;
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
        this.error = `Nothing queued. ${problems.join(' ')}`;
        return;
      }
      const ready = checked.flatMap(({ f, r }) => (r.ok ? [{ f, input: r.value }] : []));
      const outbox = useOutboxStore();
      const queued: string[] = [];
      this.queueing = true;
      try {
        for (const { f, input } of ready) {
          try {
            const entry = await outbox.enqueue({ kind: 'aoi', input });
            queued.push(entry.id);
          } catch (err) {
            for (const id of queued) await outbox.cancel(id);
            const undone = queued.length
              ? ` (the ${queued.length} queued before it were cancelled)`
              : '';
            this.error = `Nothing queued${undone}. ${label(f)}: ${readableError(err).message}`;
            return;
          }
        }
        this.done = `Queued ${picked.length} AOI${picked.length === 1 ? '' : 's'} (${picked
          .map((f) => f.name)
          .join(', ')}); they will be submitted from the Outbox.`;
      } finally {
        this.queueing = false;
      }
    },

    close(): void {
      lastFile = null;
      this.reading = null;
      this.preview = null;
      this.picked = [];
      this.merge = false;
      this.nameField = null;
      this.error = null;
      this.done = null;
    },
  },
});
