/**
 * Sync: per-resource status from the backend, live progress from `sync.progress` events, and
 * errors phrased with what to do.
 */
import { defineStore } from 'pinia';
import type { EventPayload, SyncResource, SyncStatus } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';

type Progress = EventPayload<'sync.progress'>;
type ImageryProgress = EventPayload<'sync.imagery'>;
type ResourceStatus = SyncStatus['resources'][number];

/** Names people read for the backend's resource ids. */
export const RESOURCE_LABELS: Record<string, string> = {
  orders: 'Orders',
  orderItems: 'Order items',
  aois: 'Areas of interest',
  assets: 'AOI assets',
  indices: 'Indices',
  catalogs: 'Catalog records',
  catalog: 'Catalog records',
  imagery: 'Pictures',
};

/** What to do about a resource's last sync error, by the error's kind/code. */
export function syncErrorHint(e: NonNullable<ResourceStatus['lastError']>): string {
  if (e.hint) return e.hint;
  switch (e.code) {
    case 'unauthorized':
      return 'Enter a valid API key in Connection & settings, then sync again.';
    case 'network':
    case 'timeout':
    case 'offline':
      return 'Check the network, then sync again. The data mirrored before is still available.';
    default:
      return 'Sync again; if it fails again, check the service URL in Connection & settings.';
  }
}

export const useSyncStore = defineStore('sync', {
  state: () => ({
    status: null as SyncStatus | null,
    /** Latest progress per resource during a run. */
    progress: {} as Record<string, Progress>,
    /** Resource currently being synced (`imagery` for the pictures after the records). */
    current: null as string | null,
    /** Latest progress of the pictures' pass during a run. */
    imagery: null as ImageryProgress | null,
    starting: false,
    error: null as ReadableError | null,
  }),
  getters: {
    running: (s) => s.starting || Boolean(s.status?.running),
    /** 0..1 over the resources of the run; null when no run or totals are unknown. */
    fraction(s): number | null {
      if (!this.running) return null;
      const resources = s.status?.resources ?? [];
      if (resources.length === 0) return null;
      let done = 0;
      let known = false;
      for (const r of resources) {
        const p = s.progress[r.resource];
        if (!p) continue;
        known = true;
        if (p.total !== null && p.total > 0) done += Math.min(1, p.seen / p.total);
        else if (r.resource !== s.current) done += 1;
      }
      return known ? Math.min(1, done / resources.length) : null;
    },
    lastCompleteAt(s): string | null {
      let latest: string | null = null;
      for (const r of s.status?.resources ?? []) {
        if (r.lastCompleteAt && (!latest || r.lastCompleteAt > latest)) latest = r.lastCompleteAt;
      }
      return latest;
    },
    failed: (s): ResourceStatus[] => (s.status?.resources ?? []).filter((r) => r.lastError),
  },
  actions: {
    listen(): () => void {
      const bridge = useBridge();
      const offProgress = bridge.on('sync.progress', (p) => {
        this.progress = { ...this.progress, [p.resource]: p };
        this.current = p.resource;
        if (this.status && !this.status.running) this.status = { ...this.status, running: true };
      });
      const offImagery = bridge.on('sync.imagery', (p) => {
        this.imagery = p;
        this.current = 'imagery';
      });
      const offFinished = bridge.on('sync.finished', (s) => {
        this.status = s;
        this.current = null;
        this.starting = false;
      });
      return () => {
        offProgress();
        offImagery();
        offFinished();
      };
    },
    async refresh(): Promise<void> {
      try {
        this.status = await useBridge().call('sync.status');
      } catch (err) {
        this.error = readableError(err);
      }
    },
    async run(resources?: SyncResource[]): Promise<void> {
      this.error = null;
      this.progress = {};
      this.imagery = null;
      this.starting = true;
      try {
        this.status = await useBridge().call('sync.run', resources ? { resources } : {});
      } catch (err) {
        this.error = readableError(err);
      } finally {
        this.starting = false;
      }
    },
    async cancel(): Promise<void> {
      try {
        this.status = await useBridge().call('sync.cancel');
      } catch (err) {
        this.error = readableError(err);
      }
    },
  },
});
