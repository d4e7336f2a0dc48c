/**
 * The preview of a field file (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON, CSV), one
 * store per place that imports (the AOI form, the order composer, the catalog map): the file is
 * sent to the backend as bytes (`files.preview`: read there by @eo/formats, never here), the
 * preview lists its features with their repairs and problems, and the user picks some and
 * merges them or not. What the picked features become is the caller's (AOIs, order items).
 */
import type { MultiPolygon, Polygon } from '@eo/domain';
import { defineStore } from 'pinia';
import {
  IMPORT_FILE_EXTENSIONS,
  MAX_IMPORT_FILE_BYTES,
  type FilePreview,
  type PreviewFeatureView,
} from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { readableError } from './errors';

export type Area = Polygon | MultiPolygon;

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

/** How messages name a feature: "feature 3 (Acker Nord)". */
export const featureLabel = (f: PreviewFeatureView) => `feature ${f.index} (${f.name})`;
/** The file's name without its extension (the name of a merged area). */
export const baseName = (file: string) => file.replace(/\.[^.]*$/, '');

export interface FilePreviewHooks {
  /**
   * The file holds one feature and it is an area: nothing to pick (the AOI form takes it as its
   * area at once). Called with the store.
   */
  readonly onSingleArea?: (store: FilePreviewStore) => void;
}

/**
 * The file last previewed by each store, to read it again named by another attribute. Outside
 * the stores' state: tens of MB of base64 are not for devtools or reactivity.
 */
const lastFiles = new Map<string, { name: string; base64: string }>();

export function defineFilePreviewStore(id: string, hooks: FilePreviewHooks = {}) {
  return defineStore(id, {
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
      /** The picked features are being queued (or otherwise used): the buttons wait. */
      busy: false,
      done: null as string | null,
      /** What the file was opened for (the order item's key in the composer), or null. */
      target: null as string | null,
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
      /** The picked areas as they would be used: one, or merged, or null (nothing to use). */
      oneArea(): Area | null {
        const picked = this.pickedFeatures;
        if (picked.length === 0 || (picked.length > 1 && !this.merge)) return null;
        return mergedArea(picked.map((f) => f.area as Area));
      },
    },
    actions: {
      /** Previews a picked or dropped file; true when its preview is shown. */
      async read(file: File, target: string | null = null): Promise<boolean> {
        this.close();
        this.target = target;
        const refused = fileRefusal(file);
        if (refused) {
          this.error = refused;
          return false;
        }
        this.reading = file.name;
        try {
          const base64 = base64Of(new Uint8Array(await file.arrayBuffer()));
          const preview = await useBridge().call('files.preview', { name: file.name, base64 });
          if (this.reading !== file.name) return false; // closed or another file picked meanwhile
          lastFiles.set(id, { name: file.name, base64 });
          this.preview = preview;
          this.picked = this.usable.map((f) => f.index);
          if (preview.features.length === 0) this.error = `${file.name}: no features in it.`;
          else if (preview.features.length === 1 && this.usable.length === 1)
            hooks.onSingleArea?.(this as unknown as FilePreviewStore);
          return true;
        } catch (err) {
          if (this.reading === file.name) this.error = readableError(err).message;
          return false;
        } finally {
          if (this.reading === file.name) this.reading = null;
        }
      },

      /** The features named from another attribute (`null`: the default name/title/id order). */
      async nameBy(field: string | null): Promise<void> {
        const file = lastFiles.get(id);
        if (!file || !this.preview) return;
        this.nameField = field;
        this.reading = file.name;
        try {
          const preview = await useBridge().call('files.preview', {
            ...file,
            ...(field ? { nameField: field } : {}),
          });
          if (this.reading !== file.name || lastFiles.get(id) !== file) return;
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

      /** Takes over another store's preview (a file dropped on the map, used by a form). */
      adopt(from: FilePreviewStore): void {
        this.close();
        const file = lastFiles.get(from.$id);
        if (file) lastFiles.set(id, file);
        this.preview = from.preview;
        this.picked = [...from.picked];
        this.merge = from.merge;
        this.nameField = from.nameField;
      },

      setMerge(on: boolean): void {
        this.merge = on;
        this.done = null;
      },

      close(): void {
        lastFiles.delete(id);
        this.reading = null;
        this.preview = null;
        this.picked = [];
        this.merge = false;
        this.nameField = null;
        this.error = null;
        this.done = null;
        this.target = null;
      },
    },
  });
}

export type FilePreviewStore = ReturnType<ReturnType<typeof defineFilePreviewStore>>;
