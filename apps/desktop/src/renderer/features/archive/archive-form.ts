/**
 * The saved archive search form as data: a name, a satellite and its collection (from the
 * reference lists the mirror keeps), an acquisition window (dates), a most cloud cover, an area
 * (a mirrored AOI, the catalog map's current view, or anywhere) and how many scenes to keep;
 * checked with the contract's `ArchiveSearchInput` (the domain's `SavedArchiveSearch`), the
 * schema dispatch checks again at the boundary.
 */
import { bboxPolygons, LIMITS, type Geometry } from '@eo/domain';
import { ArchiveSearchInput, type SavedArchiveSearchView } from '../../../shared/contract';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import { formWords } from '../../forms/form-words';

export interface ArchiveForm {
  /** The saved search being edited (saved again under it); empty: a new one. */
  id: string;
  name: string;
  satellite_id: string;
  collection_id: string;
  /** `YYYY-MM-DD` (a date input's value); empty: open. */
  start: string;
  end: string;
  /** Most cloud cover in %, empty: any. */
  cloudMax: string;
  /**
   * `view`: the catalog map's current box; `aoi:<id>`: a mirrored AOI; `anywhere`; `saved`: the
   * edited search's own area (`ArchiveKept.geometry`).
   */
  area: string;
  maxScenes: string;
}

/** The fields a user fills (not the edited search's id). */
export type ArchiveField = Exclude<keyof ArchiveForm, 'id'>;

const FIELDS: readonly ArchiveField[] = [
  'name',
  'satellite_id',
  'collection_id',
  'start',
  'end',
  'cloudMax',
  'area',
  'maxScenes',
];

/** The form field of an issue path of the saved search (`search.satellite.collection_id`...). */
export function archiveFieldOf(path: readonly string[]): ArchiveField | null {
  const [a, b, c] = path;
  if (a === 'name') return 'name';
  if (a === 'maxScenes') return 'maxScenes';
  if (a !== 'search') return null;
  if (b === 'satellite') return c === 'collection_id' ? 'collection_id' : 'satellite_id';
  if (b === 'start_date') return 'start';
  if (b === 'end_date') return 'end';
  if (b === 'filters') return 'cloudMax';
  if (b === 'geometry') return 'area';
  return null;
}

export const ARCHIVE_WORDS = formWords<ArchiveField>({
  fieldOf: archiveFieldOf,
  fields: {
    name: { label: 'Name', required: 'Give the search a name' },
    satellite_id: { label: 'Satellite', required: 'Choose a satellite' },
    collection_id: { label: 'Collection', required: 'Choose a collection' },
    start: { label: 'From' },
    end: { label: 'To' },
    cloudMax: { label: 'Most cloud cover (%)' },
    area: { label: 'Area' },
    maxScenes: { label: 'Scenes kept' },
  },
  names: { start_date: 'From', end_date: 'To' },
  messages: [[/end_date must not be before start_date/, 'The end is before the start']],
});

/** Control ids, for the error summary's links. */
export const archiveControl = (f: ArchiveField): string => `archive-${f}`;

export function emptyArchiveForm(): ArchiveForm {
  return {
    id: '',
    name: '',
    satellite_id: '',
    collection_id: '',
    start: '',
    end: '',
    cloudMax: '',
    area: 'view',
    maxScenes: String(LIMITS.savedArchiveSearchDefaultScenes),
  };
}

export interface ArchiveAreas {
  /** The catalog map's current view [w, s, e, n]; null before the map showed. */
  readonly viewBox: readonly [number, number, number, number] | null;
  /** Mirrored AOIs and their geometry. */
  readonly aois: ReadonlyArray<{ readonly aoi_id: string; readonly geometry: unknown }>;
}

/** What the edited search has that the form does not show, kept as it was. */
export interface ArchiveKept {
  /** Its area, for `area: 'saved'`. */
  readonly geometry?: unknown;
  /** Its filters other than the cloud cover. */
  readonly filters?: readonly unknown[];
}

const CLOUD = 'eo:cloud_cover';
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A saved search in the form, to edit it: its area a mirrored AOI when it is one's geometry,
 * else its own (`saved`); the dates as the date inputs take them.
 */
export function archiveFormOf(
  saved: SavedArchiveSearchView,
  aois: ArchiveAreas['aois'],
): { form: ArchiveForm; kept: ArchiveKept } {
  const { search } = saved;
  const cloud = search.filters?.find((f) => f.id === CLOUD);
  const geometry = search.geometry;
  const aoi = geometry === undefined ? undefined : aois.find((a) => sameJson(a.geometry, geometry));
  return {
    form: {
      id: saved.id,
      name: saved.name,
      satellite_id: search.satellite.satellite_id,
      collection_id: search.satellite.collection_id,
      start: search.start_date?.slice(0, 10) ?? '',
      end: search.end_date?.slice(0, 10) ?? '',
      cloudMax: cloud?.max === undefined ? '' : String(cloud.max),
      area: geometry === undefined ? 'anywhere' : aoi ? `aoi:${aoi.aoi_id}` : 'saved',
      maxScenes: String(saved.maxScenes),
    },
    kept: {
      geometry,
      filters: search.filters?.filter((f) => f.id !== CLOUD) ?? [],
    },
  };
}

export interface ArchiveCheck {
  readonly errors: Partial<Record<ArchiveField | 'form', string>>;
  readonly payload: ArchiveSearchInput | null;
}

/** The box as a geometry: one rectangle, or two when it crosses the antimeridian. */
function boxGeometry(box: readonly [number, number, number, number]): Geometry {
  const parts = bboxPolygons([...box] as [number, number, number, number]);
  return parts.length === 1
    ? parts[0]!
    : { type: 'MultiPolygon', coordinates: parts.map((p) => p.coordinates) };
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v)).trim();

/** The saved search the form says, or what is wrong with it, per field. */
export function checkArchiveForm(
  form: ArchiveForm,
  areas: ArchiveAreas,
  kept: ArchiveKept = {},
): ArchiveCheck {
  const errors: ArchiveCheck['errors'] = {};
  let geometry: unknown;
  if (form.area === 'saved') {
    if (kept.geometry !== undefined) geometry = kept.geometry;
    else errors.area = 'Choose an area';
  } else if (form.area === 'view') {
    if (areas.viewBox) geometry = boxGeometry(areas.viewBox);
    else errors.area = 'The catalog map has not shown an area yet: open the Catalog first';
  } else if (form.area.startsWith('aoi:')) {
    const aoi = areas.aois.find((a) => a.aoi_id === form.area.slice(4));
    if (aoi) geometry = aoi.geometry;
    else errors.area = 'That AOI is not in the mirror any more';
  }
  // A number input's v-model gives numbers (and '' when empty).
  const cloud = text(form.cloudMax);
  const cloudMax = cloud === '' ? null : Number(cloud);
  if (cloudMax !== null && !(cloudMax >= 0 && cloudMax <= 100))
    errors.cloudMax = 'A number from 0 to 100';
  const scenes = text(form.maxScenes);
  const filters = [
    ...(kept.filters ?? []),
    // min and max both: the provider's service needs both in a filter.
    ...(cloudMax !== null && !errors.cloudMax ? [{ id: CLOUD, min: 0, max: cloudMax }] : []),
  ];
  const input = {
    ...(form.id ? { id: form.id } : {}),
    name: form.name,
    search: {
      satellite: {
        collection_id: form.collection_id.trim(),
        satellite_id: form.satellite_id.trim(),
      },
      ...(form.start ? { start_date: `${form.start}T00:00:00Z` } : {}),
      ...(form.end ? { end_date: `${form.end}T23:59:59Z` } : {}),
      ...(filters.length > 0 ? { filters } : {}),
      ...(geometry !== undefined ? { geometry } : {}),
    },
    maxScenes: scenes === '' ? Number.NaN : Number(scenes),
  };
  const parsed = ArchiveSearchInput.safeParse(input);
  if (parsed.success && Object.keys(errors).length === 0)
    return { errors, payload: input as ArchiveSearchInput };
  const found = parsed.success
    ? {}
    : messagesByField(pathIssues(parsed.error.issues), ARCHIVE_WORDS);
  if (found.maxScenes)
    found.maxScenes = `A whole number from 1 to ${LIMITS.savedArchiveSearchMaxScenes}`;
  return { errors: { ...found, ...errors }, payload: null };
}

export { FIELDS as ARCHIVE_FIELDS };
