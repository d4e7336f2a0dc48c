/**
 * Offline imagery on the catalog map: the offline rasters (`rasters.list`), grouped by site, the
 * one shown (its header from the raster worker, its bands' default stretch), how it is drawn
 * (a band combination with a per-band stretch, or an index with its ramp and range), whether it
 * shows and how opaque, and the pixel inspector's reading. The map (OfflineRasterMap.vue) draws
 * what `style` says; the panel (OfflineImageryPanel.vue) edits it.
 */
import { defineStore } from 'pinia';
import type { ImageryBudgetView, OfflineRasterView } from '../../../shared/contract';
import { devicePosition, type DevicePosition } from '../../map/device-position';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { latestOnly } from '../../stores/latest';
import { useOutboxStore } from '../../stores/outbox-store';
import { BUILTIN_INDICES, indexChoiceOf, usableOn, type IndexChoice } from './index-choices';
import { rasterClient } from './raster-client';
import type { BandStats, PixelReading, RasterInfo } from './raster-engine';
import {
  presetBands,
  type BandInfo,
  type CombinationId,
  type IndexStyle,
  type RasterStyle,
} from './raster-style';
import { rasterUrl } from './raster-url';
import { sitesOf, type Site } from './sites';

const reads = latestOnly();
const opens = latestOnly();

/** Where the inspector's point came from. */
export type InspectSource = 'map' | 'centre' | 'position';

export const useRastersStore = defineStore('rasters', {
  state: () => ({
    rasters: [] as OfflineRasterView[],
    bytes: 0,
    /** The imagery budget (limit; quicklooks and stored rasters used), when the backend says. */
    budget: null as ImageryBudgetView | null,
    loading: false,
    error: null as ReadableError | null,
    /** The offline imagery panel is open (over the catalog's filters). */
    panelOpen: false,
    /** The raster on the map. */
    openId: null as string | null,
    info: null as RasterInfo | null,
    /** The raster `info` is of (the previous one's while the next date opens). */
    infoId: null as string | null,
    bandStats: null as BandStats[] | null,
    opening: false,
    openError: null as string | null,
    visible: true,
    opacity: 1,
    mode: 'bands' as 'bands' | 'index',
    combination: 'true-colour' as CombinationId,
    customBands: [0, 1, 2] as [number, number, number],
    /** The user's own [low, high] per band (raw values); the others use the window's 2-98 %. */
    stretch: {} as Record<number, [number, number]>,
    /** The mirror's indices (presets and the user's). */
    mirrorIndices: [] as IndexChoice[],
    indexKey: 'builtin:ndvi',
    /** The user's own index range; null: the index's rescale, else the window's 2-98 %. */
    indexRange: null as [number, number] | null,
    indexStats: null as BandStats | null,
    inspectAt: null as { lon: number; lat: number; source: InspectSource } | null,
    reading: null as PixelReading | null,
    inspecting: false,
    /** "At my position": asking the device, its accuracy (m), or why there is no position. */
    locating: false,
    positionAccuracyM: null as number | null,
    positionProblem: null as string | null,
    /** A click on the map inspects the pixel there (instead of picking footprints only). */
    inspectOnClick: false,
    /** Bumped to ask the map to fit the open raster. */
    fitSeq: 0,
    /** The compare swipe: another date of the site right of the divider (the open one left). */
    compareId: null as string | null,
    /** The divider, as a fraction of the map's width (0: all B, 1: all A). */
    compareSplit: 0.5,
    compareError: null as string | null,
    /** The date being opened for the compare swipe (kept open meanwhile, see `release`). */
    compareOpening: null as string | null,
  }),
  getters: {
    open(s): OfflineRasterView | null {
      return s.rasters.find((r) => r.id === s.openId) ?? null;
    },
    stored(s): OfflineRasterView[] {
      return s.rasters.filter((r) => r.state === 'stored' && r.raster);
    },
    /** Stored rasters by site (one place, several dates), newest site first. */
    sites(): Site[] {
      return sitesOf(this.stored);
    },
    /** The open raster's site (its dates for the slider). */
    site(): Site | null {
      return this.sites.find((s) => s.rasters.some((r) => r.id === this.openId)) ?? null;
    },
    /** The open raster's place in its site's dates (the date slider), oldest first. */
    dateIndex(): number {
      return this.site?.rasters.findIndex((r) => r.id === this.openId) ?? -1;
    },
    /** The raster right of the compare divider. */
    compareRaster(s): OfflineRasterView | null {
      return s.compareId ? (this.stored.find((r) => r.id === s.compareId) ?? null) : null;
    },
    bands(): BandInfo[] {
      return this.open?.raster?.bands ?? [];
    },
    /** The three bands drawn as red, green, blue. */
    rgbBands(): [number, number, number] | null {
      if (this.combination === 'custom') return this.customBands;
      return presetBands(this.bands, this.combination);
    },
    indexChoices(s): IndexChoice[] {
      const queued = useOutboxStore()
        .unsent('index')
        .map((e) =>
          indexChoiceOf(e.input as Parameters<typeof indexChoiceOf>[0], `queued:${e.id}`, true),
        );
      return [...BUILTIN_INDICES, ...s.mirrorIndices, ...queued];
    },
    indexChoice(): IndexChoice | null {
      return this.indexChoices.find((c) => c.key === this.indexKey) ?? null;
    },
    /** The chosen index's band map on this raster, or why it cannot be drawn. */
    indexUse(): ReturnType<typeof usableOn> | null {
      return this.indexChoice ? usableOn(this.indexChoice, this.bands) : null;
    },
    /** The index's range: the user's, else the index's own, else the window's 2-98 %. */
    effectiveIndexRange(s): [number, number] | null {
      if (s.indexRange) return s.indexRange;
      const own = this.indexChoice?.rescale;
      if (own) return [own[0], own[1]];
      return s.indexStats ? [s.indexStats.low, s.indexStats.high] : null;
    },
    indexStyle(): IndexStyle | null {
      const c = this.indexChoice;
      const use = this.indexUse;
      if (!c || !use?.ok) return null;
      const range = this.effectiveIndexRange ?? [-1, 1];
      return {
        kind: 'index',
        expression: c.expression,
        bandMap: use.bandMap,
        colormap: c.colormap,
        range,
      };
    },
    /** Each band's [low, high]: the user's, else the window's 2-98 %. */
    bandRange(s): (band: number) => [number, number] | null {
      return (band) =>
        s.stretch[band] ??
        (s.bandStats?.[band] ? [s.bandStats[band]!.low, s.bandStats[band]!.high] : null);
    },
    /** What the map draws; null until the raster is open and its stretch known. */
    style(): RasterStyle | null {
      if (!this.info || !this.bandStats) return null;
      if (this.mode === 'index') return this.indexStyle;
      const bands = this.rgbBands;
      if (!bands) return null;
      const ranges = bands.map((b) => this.bandRange(b));
      if (ranges.some((r) => !r)) return null;
      return {
        kind: 'bands',
        bands,
        stretch: ranges as [[number, number], [number, number], [number, number]],
      };
    },
  },
  actions: {
    async load(): Promise<void> {
      const current = reads.begin();
      this.loading = true;
      try {
        const bridge = useBridge();
        const [list, indices] = await Promise.all([
          bridge.call('rasters.list'),
          bridge.call('indices.list').catch(() => []),
        ]);
        if (!current()) return;
        this.rasters = list.rasters;
        this.bytes = list.bytes;
        this.budget = list.budget ?? null;
        this.mirrorIndices = indices.map((i) => indexChoiceOf(i, `index:${i.id}`));
        this.error = null;
        if (this.openId && !this.stored.some((r) => r.id === this.openId)) this.close();
      } catch (e) {
        if (current()) this.error = readableError(e);
      } finally {
        if (current()) this.loading = false;
      }
    },
    /** Shows a stored raster on the map (`fit`: and brings the map to it). */
    async show(id: string, fit = true): Promise<void> {
      const current = opens.begin();
      const previous = this.openId;
      this.openId = id;
      this.openError = null;
      this.reading = null;
      this.opening = true;
      if (fit) this.fitSeq++;
      try {
        const url = rasterUrl(id);
        if (!url) throw new Error('no raster source in this window');
        const client = rasterClient();
        const info = await client.open(id, url);
        const stats = await client.bandStats(id);
        if (!current()) {
          // Another date was chosen meanwhile: neither this one nor the one before is wanted.
          this.release(id);
          if (previous) this.release(previous);
          return;
        }
        if (this.compareId === id) this.stopCompare();
        if (previous) this.release(previous);
        this.info = info;
        this.infoId = id;
        this.bandStats = stats;
        // Another date of the same site keeps the user's style; another site starts afresh.
        if (!this.site?.rasters.some((r) => r.id === previous)) {
          this.stretch = {};
          this.indexRange = null;
        }
        this.indexStats = null;
        if (this.mode === 'index') void this.loadIndexStats();
        if (this.inspectAt)
          void this.inspect(this.inspectAt.lon, this.inspectAt.lat, this.inspectAt.source);
      } catch (e) {
        if (current()) this.openError = e instanceof Error ? e.message : String(e);
      } finally {
        if (current()) this.opening = false;
      }
    },
    close(): void {
      this.stopCompare();
      if (this.openId) rasterClient().close(this.openId);
      this.openId = null;
      this.info = null;
      this.infoId = null;
      this.bandStats = null;
      this.reading = null;
      this.inspectAt = null;
    },
    /** The date slider: the site's `index`-th date (oldest first) on the map, the view kept. */
    async showDate(index: number): Promise<void> {
      const r = this.site?.rasters[index];
      if (r && r.id !== this.openId) await this.show(r.id, false);
    },
    /** The compare swipe at full resolution: `id` (another date of the site) right of the divider. */
    async compareWith(id: string): Promise<void> {
      if (id === this.openId) return;
      const previous = this.compareId;
      this.compareError = null;
      this.compareOpening = id;
      try {
        const url = rasterUrl(id);
        if (!url) throw new Error('no raster source in this window');
        await rasterClient().open(id, url);
        if (this.compareOpening !== id) return this.release(id); // another choice meanwhile
        this.compareId = id;
        if (previous) this.release(previous);
      } catch (e) {
        if (this.compareOpening === id)
          this.compareError = e instanceof Error ? e.message : String(e);
      } finally {
        if (this.compareOpening === id) this.compareOpening = null;
      }
    },
    stopCompare(): void {
      const id = this.compareId;
      this.compareId = null;
      this.compareError = null;
      this.compareOpening = null;
      if (id) this.release(id);
    },
    /**
     * Closes `id` in the raster worker unless the map still wants it: shown, compared, or being
     * opened for either. The one place that decides, so a date switch and a compare chosen while
     * it opens cannot close each other's raster (the worker would answer "not open" for its tiles).
     */
    release(id: string): void {
      if (id === this.openId || id === this.compareId || id === this.compareOpening) return;
      rasterClient().close(id);
    },
    setMode(mode: 'bands' | 'index'): void {
      this.mode = mode;
      if (mode === 'index') void this.loadIndexStats();
      if (this.inspectAt)
        void this.inspect(this.inspectAt.lon, this.inspectAt.lat, this.inspectAt.source);
    },
    chooseIndex(key: string): void {
      this.indexKey = key;
      this.indexRange = null;
      this.indexStats = null;
      void this.loadIndexStats();
      if (this.inspectAt)
        void this.inspect(this.inspectAt.lon, this.inspectAt.lat, this.inspectAt.source);
    },
    /** The window's 2-98 % of the chosen index (its default range when it has no rescale). */
    async loadIndexStats(): Promise<void> {
      const id = this.openId;
      const style = this.indexStyle;
      if (!id || !style) return;
      const stats = await rasterClient()
        .indexStats(id, style)
        .catch(() => null);
      if (this.openId === id && this.indexStyle?.expression === style.expression)
        this.indexStats = stats;
    },
    setStretch(band: number, low: number, high: number): void {
      this.stretch = { ...this.stretch, [band]: [low, high] };
    },
    resetStretch(): void {
      this.stretch = {};
    },
    /** The window's 2-98 % as the index range. */
    useWindowIndexRange(): void {
      if (this.indexStats) this.indexRange = [this.indexStats.low, this.indexStats.high];
    },
    /** Every band's value, and the index's, at (lon, lat) of the open raster. */
    async inspect(lon: number, lat: number, source: InspectSource): Promise<void> {
      this.inspectAt = { lon, lat, source };
      const id = this.openId;
      if (!id || !this.info) return;
      this.inspecting = true;
      try {
        // The chosen index, whether the map draws it or the bands.
        const index = this.indexStyle;
        const reading = await rasterClient().pixel(id, lon, lat, index);
        if (this.openId === id && this.inspectAt?.lon === lon && this.inspectAt.lat === lat)
          this.reading = reading;
      } finally {
        this.inspecting = false;
      }
    },
    clearInspector(): void {
      this.inspectAt = null;
      this.reading = null;
      this.positionProblem = null;
    },
    /** Inspects the pixel under the device's position (`locate`: the device; tests pass one). */
    async inspectMyPosition(
      locate: () => Promise<DevicePosition> = () => devicePosition(0),
    ): Promise<void> {
      if (this.locating) return;
      this.locating = true;
      this.positionProblem = null;
      let got: DevicePosition;
      try {
        got = await locate();
      } finally {
        this.locating = false;
      }
      if (!got.ok) {
        this.positionProblem =
          got.why === 'unavailable'
            ? 'Your position is unknown: this device has no location service. Click the map or inspect its centre instead.'
            : got.why === 'denied'
              ? 'Your position is unknown: the app was not allowed to know it. Click the map or inspect its centre instead.'
              : 'Your position is unknown: the device found none in time. Try again in the open, or click the map.';
        return;
      }
      this.positionAccuracyM = got.accuracyM;
      await this.inspect(got.at.lon, got.at.lat, 'position');
    },
    async remove(id: string): Promise<void> {
      if (this.openId === id) this.close();
      await useBridge().call('rasters.remove', { id });
      await this.load();
    },
  },
});
