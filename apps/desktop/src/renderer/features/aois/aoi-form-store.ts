/**
 * "Create an AOI": the form's values, validated as the user types with the domain's
 * `CreateAoiRequest`, queued through the outbox (kind 'aoi'), and the edit of a queued AOI the
 * Outbox screen hands over. Backend issues (`input.field`) come back onto the fields.
 */
import { CreateAoiRequest, type MultiPolygon, type Polygon } from '@eo/domain';
import { defineStore } from 'pinia';
import type { OutboxEntryView } from '../../../shared/contract';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import { errorSummary, type SummaryLine } from '../../forms/form-words';
import { AOI_WORDS, type AoiField, type AoiInputField } from '../../forms/words/aoi-words';
import {
  emptyFormFlow,
  onFields,
  resetFlow,
  shownErrors,
  submitForm,
  touchFields,
} from '../../forms/form-flow';
import { splitIds } from '../../forms/id-list';
import { useBridge } from '../../stores/bridge-provider';
import { useLookupsStore } from '../../stores/lookups';
import { NO_KNOWN_IDS, unknownIdError, type KnownIds } from '../../forms/known-ids';
import { readableError } from '../../stores/errors';
import { useOutboxStore } from '../../stores/outbox-store';
import { useBasketStore } from '../../stores/basket-store';

export type { AoiField } from '../../forms/words/aoi-words';

/** The id of each field's control in AoiForm.vue. */
export const AOI_CONTROLS: Record<AoiInputField, string> = {
  name: 'aoi-name',
  description: 'aoi-description',
  satellite_id: 'aoi-satellite',
  provider: 'aoi-provider',
  project_id: 'aoi-project',
  geometry: 'aoi-geometry',
  item_ids: 'aoi-items',
};

export interface AoiDraft {
  name: string;
  description: string;
  satelliteId: string;
  provider: string;
  projectId: string;
  geometry: Polygon | MultiPolygon | null;
  geometrySource: string;
  /** Archive scene ids, one per line. */
  itemIds: string;
}

const FIELD_OF_DRAFT: Record<Exclude<keyof AoiDraft, 'geometrySource'>, AoiField> = {
  name: 'name',
  description: 'description',
  satelliteId: 'satellite_id',
  provider: 'provider',
  projectId: 'project_id',
  geometry: 'geometry',
  itemIds: 'item_ids',
};

export function emptyAoiDraft(): AoiDraft {
  return {
    name: '',
    description: '',
    satelliteId: '',
    provider: '',
    projectId: '',
    geometry: null,
    geometrySource: '',
    itemIds: '',
  };
}

export type AoiResult =
  { ok: true; value: CreateAoiRequest } | { ok: false; errors: Partial<Record<AoiField, string>> };

export function validateAoiDraft(d: AoiDraft, known: KnownIds = NO_KNOWN_IDS): AoiResult {
  // Ids outside the service's own lists fail on send: said now, with the nearest ones.
  const unknown: Partial<Record<AoiField, string>> = {};
  const project = unknownIdError('project', d.projectId, known);
  if (project) unknown.project_id = project;
  const satellite = unknownIdError('satellite', d.satelliteId, known);
  if (satellite) unknown.satellite_id = satellite;
  const input: Record<string, unknown> = {
    name: d.name,
    description: d.description,
    satellite_id: d.satelliteId.trim(),
    provider: d.provider.trim(),
    project_id: d.projectId.trim(),
    item_ids: splitIds(d.itemIds),
  };
  if (d.geometry) input['geometry'] = d.geometry;
  const parsed = CreateAoiRequest.safeParse(input);
  if (parsed.success && Object.keys(unknown).length === 0) return { ok: true, value: parsed.data };
  const errors: Partial<Record<AoiField, string>> = {
    ...unknown,
    ...(parsed.success ? {} : messagesByField(pathIssues(parsed.error.issues), AOI_WORDS)),
  };
  if (!d.geometry) errors.geometry = AOI_WORDS.fields.geometry.required!;
  return { ok: false, errors };
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export const useAoiFormStore = defineStore('aoiForm', {
  state: () => ({
    draft: emptyAoiDraft(),
    /** Typed-in fields, the service's word, saving, failure and the done line. */
    flow: emptyFormFlow<AoiField>(),
    geometryNote: null as string | null,
    editingId: null as string | null,
  }),
  getters: {
    result: (s): AoiResult => validateAoiDraft(s.draft, useLookupsStore().lookups),
    errors(s): Partial<Record<AoiField, string>> {
      return shownErrors(this.result.ok ? {} : this.result.errors, s.flow, s.flow.showAll);
    },
    /** After a submit: what is wrong, at the top of the form, each a link to its field. */
    summary(s): SummaryLine[] {
      return s.flow.showAll ? errorSummary(this.errors, AOI_WORDS, (f) => AOI_CONTROLS[f]) : [];
    },
  },
  actions: {
    set<F extends Exclude<keyof AoiDraft, 'geometrySource'>>(field: F, value: AoiDraft[F]): void {
      this.draft[field] = value;
      touchFields<AoiField>(this.flow, FIELD_OF_DRAFT[field]);
      this.flow.done = null;
    },

    setGeometry(geometry: Polygon | MultiPolygon | null, source: string): void {
      this.set('geometry', geometry);
      this.draft.geometrySource = geometry ? source : '';
      this.geometryNote = null;
    },

    /**
     * The catalog's selected records (the basket's) as the AOI's archive items: a catalog
     * record by its scene id (`details.id`, read from the mirror), an archive scene of the
     * basket (an entry with `archive`) by its own id, which is its scene id: no mirror read, so
     * it is never taken for a record the mirror lost.
     */
    async useCatalogRecords(recordIds: readonly string[]): Promise<void> {
      if (recordIds.length === 0) return;
      const archived = new Set(
        useBasketStore()
          .entries.filter((e) => e.archive)
          .map((e) => e.id),
      );
      try {
        const bridge = useBridge();
        const records = await Promise.all(
          recordIds.map((id) =>
            archived.has(id) ? { id, details: { id } } : bridge.call('catalog.get', { id }),
          ),
        );
        const ids = records
          .filter((r) => r !== null)
          .map((r) => {
            const sceneId = (r as { details?: { id?: unknown } }).details?.id;
            return typeof sceneId === 'string' ? sceneId : r!.id;
          });
        const known = splitIds(this.draft.itemIds);
        this.set('itemIds', [...new Set([...known, ...ids])].join('\n'));
        if (ids.length < recordIds.length) {
          this.geometryNote = `${recordIds.length - ids.length} of the selected records are no longer in the mirror.`;
        }
      } catch (err) {
        this.flow.failure = readableError(err);
      }
    },

    async submit(): Promise<OutboxEntryView | null> {
      const editing = this.editingId;
      const outbox = useOutboxStore();
      return submitForm(
        this.flow,
        this.result.ok ? this.result.value : null,
        async (input) => {
          const entry = editing
            ? await outbox.saveEdit(editing, input)
            : await outbox.enqueue({ kind: 'aoi', input });
          this.reset();
          return entry;
        },
        ({ name }) =>
          editing
            ? `Changes to AOI "${name}" saved; it will be submitted from the Outbox.`
            : `AOI "${name}" is queued and will be submitted from the Outbox.`,
        onFields(this.flow, AOI_WORDS),
      );
    },

    edit(entry: OutboxEntryView): void {
      this.reset();
      const i = entry.input;
      this.draft = {
        name: text(i['name']),
        description: text(i['description']),
        satelliteId: text(i['satellite_id']),
        provider: text(i['provider']),
        projectId: text(i['project_id']),
        geometry: (i['geometry'] as Polygon | MultiPolygon | undefined) ?? null,
        geometrySource: i['geometry'] ? 'From the queued AOI' : '',
        itemIds: Array.isArray(i['item_ids']) ? i['item_ids'].map(text).join('\n') : '',
      };
      this.editingId = entry.id;
      const details = entry.lastError?.details ?? [];
      if (details.length) {
        this.flow.serviceErrors = messagesByField(details, AOI_WORDS);
      }
    },

    cancelEdit(): void {
      const outbox = useOutboxStore();
      if (this.editingId && outbox.editing?.id === this.editingId) outbox.stopEdit();
      this.reset();
    },

    reset(): void {
      this.draft = emptyAoiDraft();
      resetFlow(this.flow);
      this.flow.done = null;
      this.geometryNote = null;
      this.editingId = null;
    },
  },
});
