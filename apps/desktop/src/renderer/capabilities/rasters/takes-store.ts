/**
 * Takes offline as the backend runs them (`rasters.takes`), followed once a second while one
 * runs, with pause, resume and cancel; and the link as measured (`rasters.link`) for the time a
 * take will need. One store for every place that starts or lists takes (a scene's detail, an
 * order item, an AOI's assets, the basket, the Sync screen and Settings).
 */
import { defineStore } from 'pinia';
import type { LinkView, OfflineTakeView, TakeOfflineInput } from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { useRastersStore } from './rasters-store';

/** Phases after which a take does nothing more (paused: until resumed). */
const SETTLED = new Set(['stored', 'failed', 'cancelled', 'paused']);
export const isRunning = (t: OfflineTakeView) => !SETTLED.has(t.phase);

const FOLLOW_MS = 1000;
let timer: ReturnType<typeof setInterval> | null = null;

export const useTakesStore = defineStore('rasterTakes', {
  state: () => ({
    takes: [] as OfflineTakeView[],
    link: null as LinkView | null,
  }),
  getters: {
    byKey: (s) => (key: string) => s.takes.find((t) => t.key === key) ?? null,
    /** The take (running or last) of an offline raster's row. */
    ofRaster: (s) => (rasterId: string) => s.takes.find((t) => t.rasterId === rasterId) ?? null,
    anyRunning: (s) => s.takes.some(isRunning),
  },
  actions: {
    async refresh(): Promise<void> {
      const before = new Set(this.takes.filter(isRunning).map((t) => t.key));
      const { takes } = await useBridge().call('rasters.takes');
      this.takes = takes;
      // A take that just ended changed the offline rasters (stored, removed, paused).
      if (takes.some((t) => before.has(t.key) && !isRunning(t))) void useRastersStore().load();
      if (!this.anyRunning) this.stopFollowing();
    },
    /** Reads `rasters.takes` every second while a take runs. */
    follow(): void {
      timer ??= setInterval(() => void this.refresh().catch(() => undefined), FOLLOW_MS);
    },
    stopFollowing(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
    async loadLink(): Promise<void> {
      this.link = (await useBridge().call('rasters.link')).link;
    },
    async start(input: TakeOfflineInput): Promise<string> {
      const { key } = await useBridge().call('rasters.take', input);
      await this.refresh();
      this.follow();
      return key;
    },
    async pause(key: string): Promise<void> {
      await useBridge().call('rasters.pause', { key });
      await this.refresh();
      this.follow();
    },
    async cancel(key: string): Promise<void> {
      await useBridge().call('rasters.cancel', { key });
      await this.refresh();
      this.follow();
    },
    /** Takes up an unfinished offline raster (paused, or cut by a quit) where it stopped. */
    async resume(rasterId: string): Promise<string> {
      const { key } = await useBridge().call('rasters.resume', { id: rasterId });
      await this.refresh();
      this.follow();
      return key;
    },
  },
});
