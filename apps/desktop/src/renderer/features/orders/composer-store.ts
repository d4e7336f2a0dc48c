/**
 * The order composer: one order of several items, validated as the user types with the domain's
 * `OrderItemInput`, priced by the service's dry run when online (`orders.quote`), and queued
 * through the outbox online or offline. Errors of the service or the backend come back by path
 * (`order_items.N.field`, `input.order_items.N.field`) and are shown on the item's field. Also
 * edits a queued order the Outbox screen hands over (`outbox.editing`).
 */
import type { FeatureCollectionInput, OpenOrderItemInput, Order } from '@eo/domain';
import { defineStore } from 'pinia';
import type { ContractIssue, OutboxEntryView } from '../../../shared/contract';
import { contractIssues, type PathIssue } from '../../forms/field-issues';
import {
  emptyFieldState,
  emptySubmitState,
  shownErrors,
  submitForm,
  touchFields,
  type FieldState,
} from '../../forms/form-flow';
import { errorSummary, type SummaryLine } from '../../forms/form-words';
import { importGeoJsonValue } from '../../forms/geojson-import';
import {
  FIELD_KEY,
  ITEM_WORDS,
  draftFromInput,
  emptyDraft,
  itemControl,
  itemMessages,
  orderPathLabel,
  validateDraft,
  type DraftField,
  type DraftResult,
  type ItemDraft,
  type ItemFieldKey,
  type ItemKind,
} from './order-item-draft';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { polygonOfRing } from '../archive/footprint-polygon';
import { useBasketStore } from '../catalog/basket-store';
import { useOutboxStore } from '../outbox/outbox-store';
import { useSettingsStore } from '../settings/settings-store';
import { useLookupsStore } from '../../stores/lookups';

type FieldErrors = Partial<Record<ItemFieldKey, string>>;

/** `[input.]order_items.N.rest` -> item N and the path inside it. */
const ITEM_PATH = /^(?:input\.)?order_items\.(\d+)(?:\.(.*))?$/;

export const useComposerStore = defineStore('composer', {
  state: () => ({
    items: [emptyDraft()] as ItemDraft[],
    /** Index of the item whose geometry the map edits. */
    active: 0,
    /** Per item key: the fields typed in, and what the service or backend said of them. */
    fields: {} as Record<string, FieldState<ItemFieldKey>>,
    /** The order's submit: every message after it, queueing, its failure, the done line. */
    flow: emptySubmitState(),
    /** Problems of the order as a whole. */
    formError: null as string | null,
    /** Per item key: why a GeoJSON file or the catalog selection could not be used. */
    geometryNotes: {} as Record<string, string>,
    quote: null as Order | null,
    /** When the shown quote was answered (ISO): an old one, offline, says so. */
    quotedAt: null as string | null,
    quoting: false,
    quoteError: null as ReadableError | null,
    /** The outbox entry being edited, if any. */
    editingId: null as string | null,
    /**
     * The split the outbox offered with its refusal (one item per satellite), for the order
     * it refused (`refused`: its items as JSON); see `splitFix`.
     */
    offeredSplit: null as { refused: string; order_items: unknown[] } | null,
  }),
  getters: {
    results(s): Record<string, DraftResult> {
      const dialect = useSettingsStore().serviceDialect;
      const known = useLookupsStore().lookups;
      return Object.fromEntries(s.items.map((d) => [d.key, validateDraft(d, dialect, known)]));
    },
    valid(): boolean {
      return Object.values(this.results).every((r) => r.ok);
    },
    /** What a field shows: the local check while the user types, else the service's word. */
    errorsOf(s) {
      return (key: string): FieldErrors => {
        const r = this.results[key];
        const local: FieldErrors = r && !r.ok ? r.errors : {};
        const fields = s.fields[key] ?? emptyFieldState<ItemFieldKey>();
        return shownErrors(local, fields, s.flow.showAll, ['form']);
      };
    },
    /**
     * After a submit: what is wrong, at the top of the composer, each a link to its field
     * ("Item 2 › Project: Choose a project" when the order has several items).
     */
    summary(s): SummaryLine[] {
      if (!s.flow.showAll) return [];
      const many = s.items.length > 1;
      return s.items.flatMap((d, i) =>
        errorSummary(
          this.errorsOf(d.key),
          ITEM_WORDS,
          (f) => itemControl(d.key, f),
          many ? `Item ${i + 1} › ` : '',
        ),
      );
    },
    /** The offered split, while the order is still the one refused (any change drops it). */
    splitFix(s): unknown[] | null {
      const split = s.offeredSplit;
      return split && JSON.stringify(this.orderItems) === split.refused ? split.order_items : null;
    },
    /** The order as the domain expects it; null while any item is invalid. */
    orderItems(): OpenOrderItemInput[] | null {
      const out: OpenOrderItemInput[] = [];
      for (const d of this.items) {
        const r = this.results[d.key];
        if (!r?.ok) return null;
        out.push(r.value);
      }
      return out;
    },
  },
  actions: {
    /** A change from the form: marks the field as typed in and drops stale answers. */
    set<F extends DraftField>(key: string, field: F, value: ItemDraft[F]): void {
      const d = this.items.find((x) => x.key === key);
      if (!d) return;
      d[field] = value;
      this.touch(key, FIELD_KEY[field]);
    },

    touch(key: string, field: ItemFieldKey): void {
      // The cloud delivery is a pair: typing one half shows what the other half lacks.
      const pair: ItemFieldKey[] = field.startsWith('cloud_delivery.')
        ? ['cloud_delivery.config', 'cloud_delivery.path']
        : [];
      const fields = (this.fields[key] ??= emptyFieldState<ItemFieldKey>());
      touchFields(fields, ...pair, field);
      this.quote = null;
      this.flow.done = null;
      this.formError = null;
    },

    setKind(key: string, kind: ItemKind): void {
      const d = this.items.find((x) => x.key === key);
      if (!d) return;
      d.kind = kind;
      if (kind === 'recurring' && !d.recurrence) {
        d.recurrence = emptyDraft('recurring', useSettingsStore().serviceDialect).recurrence;
      }
      this.quote = null;
    },

    setGeometry(key: string, geometry: FeatureCollectionInput | null, source: string): void {
      const d = this.items.find((x) => x.key === key);
      if (!d) return;
      d.geometry = geometry;
      d.geometrySource = geometry ? source : '';
      delete this.geometryNotes[key];
      this.touch(key, 'geometry');
    },

    /**
     * An area imported from a file: its geometry, and, if the item has no name yet, the name
     * its features carry (`properties.name`, as Google Earth, QGIS and geojson.io write it).
     */
    importArea(key: string, geometry: FeatureCollectionInput, fileName: string): void {
      this.setGeometry(key, geometry, fileName);
      const d = this.items.find((x) => x.key === key);
      if (!d || d.name.trim() !== '') return;
      const named = geometry.features
        .map((f) => (f.properties as Record<string, unknown> | null | undefined)?.['name'])
        .find((n): n is string => typeof n === 'string' && n.trim() !== '');
      if (named !== undefined) this.set(key, 'name', named.trim());
    },

    geometryProblem(key: string, message: string): void {
      this.geometryNotes[key] = message;
    },

    addItem(kind: ItemKind = 'tasking'): void {
      const prev = this.items[this.items.length - 1];
      const d = emptyDraft(kind, useSettingsStore().serviceDialect);
      // A new item of the same order is most often for the same project.
      if (prev) d.projectId = prev.projectId;
      this.items.push(d);
      this.active = this.items.length - 1;
      this.quote = null;
    },

    removeItem(key: string): void {
      if (this.items.length <= 1) return;
      const i = this.items.findIndex((x) => x.key === key);
      if (i < 0) return;
      this.items.splice(i, 1);
      delete this.fields[key];
      this.active = Math.min(this.active, this.items.length - 1);
      this.quote = null;
    },

    /**
     * Takes the catalog's selected records (the basket's: archive scenes too, by their kept
     * outline): their footprints become the item's geometry and, for an archive item, their
     * scene ids (`details.id`) its item_ids.
     */
    async useCatalogRecords(key: string, recordIds: readonly string[]): Promise<void> {
      const d = this.items.find((x) => x.key === key);
      if (!d || recordIds.length === 0) return;
      const bridge = useBridge();
      // Archive scenes in the basket are no catalog records: their kept outline is the area.
      const archived = new Map(
        useBasketStore()
          .entries.filter((e) => e.archive)
          .map((e) => [e.id, e.archive!.footprint]),
      );
      const archiveRecord = (id: string) => {
        const ring = archived.get(id);
        return ring ? { id, details: { id, geometry: polygonOfRing(ring) } } : null;
      };
      try {
        const records = await Promise.all(
          recordIds.map((id) =>
            archived.has(id) ? archiveRecord(id) : bridge.call('catalog.get', { id }),
          ),
        );
        const found = records.filter((r) => r !== null) as Array<{
          id: string;
          details?: { id?: unknown; geometry?: unknown };
        }>;
        if (found.length < recordIds.length) {
          this.geometryProblem(
            key,
            `${recordIds.length - found.length} of the selected records are no longer in the mirror.`,
          );
          if (found.length === 0) return;
        }
        const fc = importGeoJsonValue({
          type: 'FeatureCollection',
          features: found.map((r) => ({
            type: 'Feature',
            geometry: r.details?.geometry,
            properties: { item_id: r.details?.id ?? r.id },
          })),
        });
        if (!fc.ok) {
          this.geometryProblem(
            key,
            `The footprints of the selected records cannot be used. ${fc.message}`,
          );
          return;
        }
        const noun = found.length === 1 ? 'record' : 'records';
        this.setGeometry(key, fc.value, `Footprints of ${found.length} catalog ${noun}`);
        if (d.kind === 'archive') {
          const ids = found.map((r) => (typeof r.details?.id === 'string' ? r.details.id : r.id));
          this.set(key, 'itemIds', ids.join('\n'));
        }
      } catch (err) {
        this.geometryProblem(key, readableError(err).message);
      }
    },

    /** Puts issues with order item paths on their items; the rest on the whole form. */
    applyIssues(issues: readonly PathIssue[]): void {
      const byItem = new Map<number, PathIssue[]>();
      const rest: string[] = [];
      for (const issue of issues) {
        const m = ITEM_PATH.exec(issue.path);
        if (m && this.items[Number(m[1])]) {
          const list = byItem.get(Number(m[1])) ?? [];
          list.push({ path: m[2] ?? '', message: issue.message });
          byItem.set(Number(m[1]), list);
        } else {
          // In the composer's words: "Item 3 › Area: …", or the order's own message.
          const path = issue.path
            .replace(/^input\.?/, '')
            .split('.')
            .filter(Boolean);
          const said = ITEM_WORDS.say({ path: '', message: issue.message });
          rest.push(path.length > 0 ? `${orderPathLabel(path)}: ${said}` : said);
        }
      }
      const next: Record<string, FieldState<ItemFieldKey>> = {};
      for (const d of this.items) {
        next[d.key] = { touched: this.fields[d.key]?.touched ?? {}, serviceErrors: {} };
      }
      for (const [index, list] of byItem) {
        const d = this.items[index]!;
        next[d.key]!.serviceErrors = itemMessages(d, list);
      }
      this.fields = next;
      this.formError = rest.length ? rest.join(' ') : null;
    },

    /** Refuses while errors stand: shows them all (the summary lists them at the top). */
    check(): OpenOrderItemInput[] | null {
      const items = this.orderItems;
      if (items) return items;
      this.flow.showAll = true;
      return null;
    },

    /** "Preview price": the service's dry run (online only). */
    async preview(): Promise<void> {
      this.quoteError = null;
      this.flow.done = null;
      const items = this.check();
      if (!items) return;
      this.formError = null;
      this.quoting = true;
      try {
        this.quote = await useBridge().call('orders.quote', { order_items: items, dry_run: true });
        this.quotedAt = new Date().toISOString();
        for (const fields of Object.values(this.fields)) fields.serviceErrors = {};
      } catch (err) {
        this.quote = null;
        const issues = contractIssues(err);
        if (issues.length) this.applyIssues(issues);
        else this.quoteError = readableError(err);
      } finally {
        this.quoting = false;
      }
    },

    /** "Queue order" / "Save changes": through the outbox, online or offline. */
    async submit(): Promise<OutboxEntryView | null> {
      const items = this.check();
      if (items) this.formError = null;
      const editing = this.editingId;
      const outbox = useOutboxStore();
      return submitForm(
        this.flow,
        items,
        async (order_items) => {
          const input = { order_items };
          const entry = editing
            ? await outbox.saveEdit(editing, input)
            : await outbox.enqueue({ kind: 'order', input });
          this.reset();
          return entry;
        },
        ({ length: n }) => {
          const verb = editing ? 'Changes saved: the order' : 'Order';
          return `${verb} (${n} item${n === 1 ? '' : 's'}) is queued and will be submitted from the Outbox.`;
        },
        (err) => {
          const issues = contractIssues(err);
          if (issues.length) this.applyIssues(issues);
          const fix = issues.map((i) => (i as ContractIssue).fix).find(Boolean);
          this.offeredSplit = fix
            ? { refused: JSON.stringify(items), order_items: [...fix.order_items] }
            : null;
          return issues.length > 0;
        },
      );
    },

    /**
     * "Split into one item per satellite": the refused order's items as the outbox offered to
     * split them, queued at once (one click from the refusal to the queued order).
     */
    async applySplit(): Promise<OutboxEntryView | null> {
      const fix = this.splitFix;
      if (!fix) return null;
      this.items = fix.map((raw) => ({
        ...draftFromInput((raw ?? {}) as Record<string, unknown>),
        geometrySource: 'Split by satellite',
      }));
      this.active = 0;
      this.fields = {};
      this.offeredSplit = null;
      return this.submit();
    },

    /** Load a queued order for editing. */
    edit(entry: OutboxEntryView): void {
      const raw = entry.input['order_items'];
      const items = Array.isArray(raw)
        ? raw.map((i) => draftFromInput((i ?? {}) as Record<string, unknown>))
        : [];
      this.reset();
      this.items = items.length ? items : [emptyDraft()];
      this.editingId = entry.id;
      // A failed entry comes back with the service's reasons: show them on the fields.
      const details = entry.lastError?.details ?? [];
      if (details.length) this.applyIssues(details);
    },

    /** Leave editing (and the outbox's edit state) without saving. */
    cancelEdit(): void {
      const outbox = useOutboxStore();
      if (this.editingId && outbox.editing?.id === this.editingId) outbox.stopEdit();
      this.reset();
    },

    reset(): void {
      this.items = [emptyDraft()];
      this.active = 0;
      this.fields = {};
      // In place: a submit in progress holds this object and says its done line on it.
      Object.assign(this.flow, emptySubmitState());
      this.formError = null;
      this.geometryNotes = {};
      this.quote = null;
      this.quoteError = null;
      this.editingId = null;
      this.offeredSplit = null;
    },
  },
});
