/**
 * The AOIs screen: AOIs from the mirror (filtered by status, project and name), the open AOI's
 * assets, hover/selection shared by the list and the map, and reloads when AOIs change or a
 * sync ends. Queued AOIs come from the outbox store.
 */
import type { Aoi, AoiStatus, Asset } from '@eo/domain';
import { defineStore } from 'pinia';
import type { AoisQuery } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import type { ReadableError } from './errors';
import { latestRead, reloadOnChange, type ReadStatus } from './list-reads';

export interface AoiFilters {
  status: AoiStatus[];
  projectId: string;
  text: string;
}

type Status = ReadStatus;
const readList = latestRead();
const readAssets = latestRead();

/** The filters as the contract's query (empty parts left out). */
export function buildAoisQuery(f: AoiFilters): AoisQuery {
  const q: NonNullable<AoisQuery> = {};
  if (f.status.length) q.status = [...f.status];
  if (f.projectId.trim()) q.projectId = f.projectId.trim();
  if (f.text.trim()) q.text = f.text.trim();
  return q;
}

export const useAoisStore = defineStore('aois', {
  state: () => ({
    filters: { status: [], projectId: '', text: '' } as AoiFilters,
    aois: [] as Aoi[],
    status: 'idle' as Status,
    error: null as ReadableError | null,
    /** An AOI id, or `queued:<outbox entry id>`. */
    selectedId: null as string | null,
    hoveredId: null as string | null,
    assets: [] as Asset[],
    assetsStatus: 'idle' as Status,
    assetsError: null as ReadableError | null,
  }),
  getters: {
    selectedAoi(s): Aoi | null {
      return s.aois.find((a) => a.aoi_id === s.selectedId) ?? null;
    },
    selectedQueuedId: (s): string | null =>
      s.selectedId?.startsWith('queued:') ? s.selectedId.slice('queued:'.length) : null,
  },
  actions: {
    listen(): () => void {
      return reloadOnChange('aois', () => this.load());
    },

    async load(): Promise<void> {
      const applied = await readList(
        (status, error) => {
          this.status = status;
          this.error = error;
        },
        () => useBridge().call('aois.list', buildAoisQuery(this.filters)),
        (aois) => {
          this.aois = aois;
        },
      );
      if (!applied) return;
      const open = this.selectedId;
      if (open && !open.startsWith('queued:')) {
        if (this.aois.some((a) => a.aoi_id === open)) await this.loadAssets();
        else this.select(null);
      }
    },

    select(id: string | null): void {
      this.selectedId = id;
      this.assets = [];
      this.assetsError = null;
      this.assetsStatus = 'idle';
      if (id && !id.startsWith('queued:')) void this.loadAssets();
    },

    hover(id: string | null): void {
      this.hoveredId = id;
    },

    async loadAssets(): Promise<void> {
      const id = this.selectedId;
      if (!id || id.startsWith('queued:')) return;
      await readAssets(
        (status, error) => {
          this.assetsStatus = status;
          this.assetsError = error;
        },
        () => useBridge().call('aois.assets', { aoiId: id }),
        (assets) => {
          this.assets = assets;
        },
      );
    },
  },
});
