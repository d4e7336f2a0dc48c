/**
 * One order item as the composer's form holds it (strings as typed, a kind chosen from a
 * selector) and how it becomes the domain's `OrderItemInput`, and back for editing a queued
 * order. Validation is the domain schema's; only what the schema cannot see (a number or a
 * date-time that does not read as one, a missing geometry) is said here.
 */
import {
  clientOrderItemSchema,
  orderItemTypeOf,
  recurringChoices,
  SERVICE_PROFILES,
  type FeatureCollectionInput,
  type OpenOrderItemInput,
  type OrderItemType,
  type ServiceDialect,
} from '@eo/domain';
import { localInputToRfc3339, rfc3339ToLocalInput } from '../../forms/local-datetime';
import { messagesByField, pathIssues, type PathIssue } from '../../forms/field-issues';
import { NO_KNOWN_IDS, unknownIdError, type KnownIds } from '../../forms/known-ids';
import { splitIds } from '../../forms/id-list';
import {
  ITEM_WORDS,
  type ItemFieldKey,
  type ItemInputKey,
} from '../../forms/words/order-item-words';

export type ItemKind = 'tasking' | 'archive' | 'recurring';

export const ITEM_KINDS: ReadonlyArray<{ id: ItemKind; label: string; type: OrderItemType }> = [
  { id: 'tasking', label: 'Tasking (new acquisition)', type: 'TASKING' },
  { id: 'archive', label: 'Archive (existing scenes)', type: 'ARCHIVE' },
  { id: 'recurring', label: 'Recurring (monitoring)', type: 'RECURRING' },
];

export interface ItemDraft {
  /** Stable key for lists and error maps (not sent). */
  key: string;
  kind: ItemKind;
  name: string;
  projectId: string;
  geometry: FeatureCollectionInput | null;
  /** Where the geometry came from, for people: "Drawn on the map", "fields.geojson". */
  geometrySource: string;
  /** Archive scene ids, one per line (commas also separate). */
  itemIds: string;
  /** `<input type="datetime-local">` values, local time. */
  start: string;
  end: string;
  /** A recurring value of the service's profile (`recurringChoices`), or '' for none. */
  recurrence: string;
  occurrences: string;
  cloudCover: string;
  offNadir: string;
  bandsetId: string;
  /** One of the profile's delivery speeds, or '' for the service's default. */
  deliverySpeed: string;
  usecase: string;
  cloudConfig: string;
  cloudPath: string;
}

export type DraftField = Exclude<keyof ItemDraft, 'key' | 'kind' | 'geometrySource'>;

/** The error key each form field shows. */
export const FIELD_KEY: Record<DraftField, ItemFieldKey> = {
  name: 'name',
  projectId: 'project_id',
  geometry: 'geometry',
  itemIds: 'item_ids',
  start: 'start_date',
  end: 'end_date',
  recurrence: 'recurrence',
  occurrences: 'no_of_occurrences',
  cloudCover: 'cloud_cover',
  offNadir: 'off_nadir',
  bandsetId: 'bandset',
  deliverySpeed: 'delivery_speed',
  usecase: 'usecase',
  cloudConfig: 'cloud_delivery.config',
  cloudPath: 'cloud_delivery.path',
};

export type { ItemFieldKey } from '../../forms/words/order-item-words';
export { ITEM_WORDS, orderPathLabel } from '../../forms/words/order-item-words';

/** The fields an item of `kind` must have, by the rules of the service's profile. */
export function itemRequired(kind: ItemKind, dialect: ServiceDialect): ReadonlySet<ItemFieldKey> {
  const required: ItemFieldKey[] = ['name', 'project_id', 'geometry'];
  if (kind === 'archive') required.push('item_ids');
  else required.push('start_date', 'end_date');
  if (kind === 'recurring') required.push('recurrence', 'no_of_occurrences');
  if (SERVICE_PROFILES[dialect].usecaseRequired) required.push('usecase');
  return new Set(required);
}

/** The id of each field's control in ComposerItem.vue, for the item with `key`. */
export function itemControl(key: string, field: ItemInputKey): string {
  const suffix: Record<ItemInputKey, string> = {
    name: 'name',
    project_id: 'project',
    geometry: 'area',
    item_ids: 'item-ids',
    start_date: 'start',
    end_date: 'end',
    recurrence: 'recurrence',
    no_of_occurrences: 'occurrences',
    cloud_cover: 'cloud',
    off_nadir: 'nadir',
    bandset: 'bandset',
    delivery_speed: 'speed',
    usecase: 'usecase',
    'cloud_delivery.config': 'cloud-config',
    'cloud_delivery.path': 'cloud-path',
  };
  return `${key}-${suffix[field]}`;
}

let keySeq = 0;

export function emptyDraft(
  kind: ItemKind = 'tasking',
  dialect: ServiceDialect = 'spec',
): ItemDraft {
  // Our spec's usual monitoring cadence; the provider's first recurring value otherwise.
  const choices = recurringChoices(dialect);
  const recurring = choices.includes('WEEKLY') ? 'WEEKLY' : (choices[0] ?? '');
  return {
    key: `item-${++keySeq}`,
    kind,
    name: '',
    projectId: '',
    geometry: null,
    geometrySource: '',
    itemIds: '',
    start: '',
    end: '',
    recurrence: kind === 'recurring' ? recurring : '',
    occurrences: '',
    cloudCover: '',
    offNadir: '',
    bandsetId: '',
    deliverySpeed: '',
    usecase: '',
    cloudConfig: '',
    cloudPath: '',
  };
}

// A valid area: order items take areas only (a Point would add its own geometry issue).
const STAND_IN_AREA: FeatureCollectionInput = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [0.01, 0],
            [0.01, 0.01],
            [0, 0.01],
            [0, 0],
          ],
        ],
      },
      properties: {},
    },
  ],
};

export type DraftResult =
  | { ok: true; value: OpenOrderItemInput }
  | { ok: false; errors: Partial<Record<ItemFieldKey, string>> };

/**
 * The draft as the domain's input, or a message per field, by the rules of the service's profile
 * (e.g. `usecase` required for `provider-v0`).
 */
export function validateDraft(
  d: ItemDraft,
  dialect: ServiceDialect = 'spec',
  known: KnownIds = NO_KNOWN_IDS,
): DraftResult {
  const local: Partial<Record<ItemFieldKey, string>> = {};
  // Ids outside the service's own lists fail on send: said now, with the nearest ones.
  const project = unknownIdError('project', d.projectId, known);
  if (project) local.project_id = project;
  const bandset = unknownIdError('bandset', d.bandsetId, known);
  if (bandset) local.bandset = bandset;
  const input: Record<string, unknown> = {
    name: d.name,
    project_id: d.projectId.trim(),
    // Without a geometry zod stops before the per-kind rules; check the rest against a stand-in
    // so every other field still gets its message while the area is not there yet.
    geometry: d.geometry ?? STAND_IN_AREA,
  };
  if (!d.geometry) local.geometry = ITEM_WORDS.fields.geometry.required!;

  const number = (raw: string, key: ItemInputKey, field: string) => {
    if (!raw.trim()) return;
    const n = Number(raw);
    if (Number.isFinite(n)) input[field] = n;
    else local[key] = `${ITEM_WORDS.fields[key].label} must be a number`;
  };
  const instant = (raw: string, key: ItemInputKey) => {
    if (!raw.trim()) return;
    const iso = localInputToRfc3339(raw);
    if (iso) input[key] = iso;
    else local[key] = `${ITEM_WORDS.fields[key].label} is not a valid date and time`;
  };

  if (d.kind === 'archive') input['item_ids'] = splitIds(d.itemIds);
  // Optional for archive items, required for the others (the domain says so).
  instant(d.start, 'start_date');
  instant(d.end, 'end_date');
  if (d.kind === 'recurring') {
    // An empty selector means "no recurrence": the domain then reads it as a tasking item and
    // says so; never silently ONCE.
    if (d.recurrence) input['recurrence'] = d.recurrence;
    else local.recurrence = ITEM_WORDS.fields.recurrence.required!;
    number(d.occurrences, 'no_of_occurrences', 'no_of_occurrences');
  }
  number(d.cloudCover, 'cloud_cover', 'cloud_cover');
  number(d.offNadir, 'off_nadir', 'off_nadir');
  if (d.bandsetId.trim()) input['bandset'] = { bandset_id: d.bandsetId.trim() };
  if (d.deliverySpeed) input['delivery_speed'] = d.deliverySpeed;
  if (d.usecase.trim()) input['usecase'] = d.usecase.trim();
  if (d.cloudConfig.trim() || d.cloudPath.trim()) {
    input['cloud_delivery'] = { config: d.cloudConfig.trim(), path: d.cloudPath.trim() };
  }

  const parsed = clientOrderItemSchema(dialect).safeParse(input);
  if (parsed.success && Object.keys(local).length === 0) return { ok: true, value: parsed.data };
  const issues: PathIssue[] = parsed.success ? [] : pathIssues(parsed.error.issues);
  const errors = { ...itemMessages(d, issues), ...local };
  return { ok: false, errors };
}

/**
 * Issues relative to one item as messages by field, in the composer's words; a scene id's
 * issue names the id.
 */
export function itemMessages(
  d: ItemDraft,
  issues: readonly PathIssue[],
): Partial<Record<ItemFieldKey, string>> {
  const out: Partial<Record<ItemFieldKey, string>> = messagesByField(issues, ITEM_WORDS);
  const first = issues.find((i) => i.path.split('.')[0] === 'item_ids');
  const m = first ? /^item_ids\.(\d+)/.exec(first.path) : null;
  const id = m ? splitIds(d.itemIds)[Number(m[1])] : undefined;
  if (id && out.item_ids) out.item_ids = `${id}: ${out.item_ids}`;
  return out;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** A queued item's input back into the form (editing from the Outbox). */
export function draftFromInput(raw: Record<string, unknown>): ItemDraft {
  const type = orderItemTypeOf(raw as { item_ids?: string[]; recurrence?: string });
  const kind: ItemKind =
    type === 'ARCHIVE' ? 'archive' : type === 'RECURRING' ? 'recurring' : 'tasking';
  const d = emptyDraft(kind);
  const cloud = (raw['cloud_delivery'] ?? {}) as Record<string, unknown>;
  const recurrence = text(raw['recurrence']);
  return {
    ...d,
    name: text(raw['name']),
    projectId: text(raw['project_id']),
    geometry: (raw['geometry'] as FeatureCollectionInput | undefined) ?? null,
    geometrySource: raw['geometry'] ? 'From the queued order' : '',
    itemIds: Array.isArray(raw['item_ids']) ? raw['item_ids'].map(text).join('\n') : '',
    start: rfc3339ToLocalInput(text(raw['start_date'])),
    end: rfc3339ToLocalInput(text(raw['end_date'])),
    recurrence:
      recurrence && recurrence !== 'ONCE' ? (recurrence as ItemDraft['recurrence']) : d.recurrence,
    occurrences: text(raw['no_of_occurrences']),
    cloudCover: text(raw['cloud_cover']),
    offNadir: text(raw['off_nadir']),
    bandsetId: text((raw['bandset'] as { bandset_id?: unknown } | undefined)?.bandset_id),
    deliverySpeed: text(raw['delivery_speed']) as ItemDraft['deliverySpeed'],
    usecase: text(raw['usecase']),
    cloudConfig: text(cloud['config']),
    cloudPath: text(cloud['path']),
  };
}
