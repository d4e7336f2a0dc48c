/**
 * The order composer: one order of several items, validated as the user types with the domain's
 * `OrderItemInput`, priced by the service's dry run when online (`orders.quote`), and queued
 * through the outbox online or offline. Errors of the service or the backend come back by path
 * (`order_items.N.field`, `input.order_items.N.field`) and are shown on the item's field. Also
 * edits a queued order the Outbox screen hands over (`outbox.editing`).
 */
import type { FeatureCollectionInput, OpenOrderItemInput, Order } from '@eo/domain';
import { defineStore } from 'pinia';
import type { OutboxEntryView } from '../../../shared/work';
import { contractIssues, type PathIssue } from '../../forms/field-issues';
import { importGeoJsonValue } from '../../forms/geojson-import';
import {
  FIELD_KEY,
  draftFromInput,
  emptyDraft,
  itemMessages,
  validateDraft,
  type DraftField,
  type DraftResult,
  type ItemDraft,
  type ItemFieldKey,
  type ItemKind,
} from './order-item-draft';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { useOutboxStore } from '../outbox/outbox-store';
import { useSettingsStore } from '../settings/settings-store';

type FieldErrors = Partial<Record<ItemFieldKey, string>>;

/** `[input.]order_items.N.rest` -> item N and the path inside it. */
const ITEM_PATH = /^(?:input\.)?order_items\.(\d+)(?:\.(.*))?$/;

export const useComposerStore = defineStore('composer', {
  state: () => ({
    items: [emptyDraft()] as ItemDraft[],
    /** Index of the item whose geometry the map edits. */
    active: 0,
    /** Fields the user has changed, per item key: their errors show while typing. */
    touched: {} as Record<string, Partial<Record<ItemFieldKey, true>>>,
    /** After a refused submit every error shows, touched or not. */
    showAll: false,
    /** What the service or backend said, per item key; a field's entry goes when it changes. */
    serviceErrors: {} as Record<string, FieldErrors>,
    /** Problems of the order as a whole. */
    formError: null as string | null,
    /** Per item key: why a GeoJSON file or the catalog selection could not be used. */
    geometryNotes: {} as Record<string, string>,
    quote: null as Order | null,
    quoting: false,
    quoteError: null as ReadableError | null,
    queueing: false,
    queueError: null as ReadableError | null,
    /** Shown after a successful queue (the form is empty again). */
    queuedMessage: null as string | null,
    /** The outbox entry being edited, if any. */
    editingId: null as string | null,
  }),
  getters: {
    results(s): Record<string, DraftResult> {
      const dialect = useSettingsStore().serviceDialect;
      return Object.fromEntries(s.items.map((d) => [d.key, validateDraft(d, dialect)]));
    },
    valid(): boolean {
      return Object.values(this.results).every((r) => r.ok);
    },
    /** What a field shows: the local check while the user types, else the service's word. */
    errorsOf(s) {
      return (key: string): FieldErrors => {
        const r = this.results[key];
        const local: FieldErrors = r && !r.ok ? r.errors : {};
        const touched = s.touched[key] ?? {};
        const shown: FieldErrors = {};
        for (const [field, message] of Object.entries(local) as Array<[ItemFieldKey, string]>) {
          if (s.showAll || touched[field] || field === 'form') shown[field] = message;
        }
        return { ...s.serviceErrors[key], ...shown };
      };
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
      const pair = field.startsWith('cloud_delivery.')
        ? { 'cloud_delivery.config': true as const, 'cloud_delivery.path': true as const }
        : {};
      this.touched[key] = { ...this.touched[key], ...pair, [field]: true };
      const service = this.serviceErrors[key];
      if (service?.[field]) {
        const rest = { ...service };
        delete rest[field];
        this.serviceErrors[key] = rest;
      }
      this.quote = null;
      this.queuedMessage = null;
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
      delete this.touched[key];
      delete this.serviceErrors[key];
      this.active = Math.min(this.active, this.items.length - 1);
      this.quote = null;
    },

    /**
     * Takes the catalog's selected records: their footprints become the item's geometry and,
     * for an archive item, their scene ids (`details.id`) its item_ids.
     */
    async useCatalogRecords(key: string, recordIds: readonly string[]): Promise<void> {
      const d = this.items.find((x) => x.key === key);
      if (!d || recordIds.length === 0) return;
      const bridge = useBridge();
      try {
        const records = await Promise.all(
          recordIds.map((id) => bridge.call('catalog.get', { id })),
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
          rest.push(issue.message);
        }
      }
      const next: Record<string, FieldErrors> = {};
      for (const [index, list] of byItem) {
        const d = this.items[index]!;
        next[d.key] = itemMessages(d, list);
      }
      this.serviceErrors = next;
      this.formError = rest.length ? rest.join(' ') : null;
    },

    /** Refuses while errors stand: shows them all and names the first item with one. */
    check(): OpenOrderItemInput[] | null {
      const items = this.orderItems;
      if (items) return items;
      this.showAll = true;
      const bad = this.items.findIndex((d) => !this.results[d.key]?.ok);
      this.formError =
        this.items.length > 1
          ? `Item ${bad + 1} has fields to correct before the order can be sent.`
          : 'Correct the highlighted fields first.';
      return null;
    },

    /** "Preview price": the service's dry run (online only). */
    async preview(): Promise<void> {
      this.quoteError = null;
      this.queuedMessage = null;
      const items = this.check();
      if (!items) return;
      this.formError = null;
      this.quoting = true;
      try {
        this.quote = await useBridge().call('orders.quote', { order_items: items, dry_run: true });
        this.serviceErrors = {};
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
      this.queueError = null;
      this.queuedMessage = null;
      const items = this.check();
      if (!items) return null;
      this.formError = null;
      this.queueing = true;
      const outbox = useOutboxStore();
      try {
        const input = { order_items: items };
        const entry = this.editingId
          ? await outbox.saveEdit(this.editingId, input)
          : await outbox.enqueue({ kind: 'order', input });
        const n = items.length;
        const what = `${n} item${n === 1 ? '' : 's'}`;
        const verb = this.editingId ? 'Changes saved: the order' : 'Order';
        this.reset();
        this.queuedMessage = `${verb} (${what}) is queued and will be submitted from the Outbox.`;
        return entry;
      } catch (err) {
        const issues = contractIssues(err);
        if (issues.length) this.applyIssues(issues);
        else this.queueError = readableError(err);
        return null;
      } finally {
        this.queueing = false;
      }
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
      this.touched = {};
      this.showAll = false;
      this.serviceErrors = {};
      this.formError = null;
      this.geometryNotes = {};
      this.quote = null;
      this.quoteError = null;
      this.queueError = null;
      this.queuedMessage = null;
      this.editingId = null;
    },
  },
});
