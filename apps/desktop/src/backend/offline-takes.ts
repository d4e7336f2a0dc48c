/**
 * Taking sites offline from the app (`rasters.take`, `rasters.takes`, `rasters.cancel`): each
 * take runs @eo/sync's `mirror.offline.take` in the background over the current connection
 * (its client, its service URL, the imagery budget of the settings), its latest step kept for
 * the renderer to show (progress, then stored or why not), cancellable. The same site asked
 * twice while running is the same take (sync refuses a second one anyway).
 */
import { areaAround, type Mirror, type OfflineProgress, type SiteArea } from '@eo/sync';
import type { OfflineTakeView, TakeOfflineInput } from '../shared/contract';
import type { StoredSettings } from './local-store';

export interface TakeConnection {
  readonly url: string;
  readonly client: Parameters<Mirror['offline']['take']>[1]['client'];
}

export interface OfflineTakesOptions {
  readonly offline: Pick<Mirror['offline'], 'take'>;
  readonly connection: () => TakeConnection | null;
  /** Why there is no connection (thrown as the call's error). */
  readonly noService: () => Error;
  readonly settings: () => Pick<StoredSettings, 'imageryBudgetMb'>;
  /** Told when a take moves on (the renderer reloads its list). */
  readonly onChange?: () => void;
}

/** Finished takes kept for the renderer to read how they ended. */
const KEEP_FINISHED = 20;

function siteArea(area: TakeOfflineInput['area']): SiteArea {
  return area.kind === 'around'
    ? areaAround(area.lon, area.lat, area.radiusM)
    : { geometry: area.geometry, label: area.label };
}

export function makeOfflineTakes(options: OfflineTakesOptions) {
  const takes = new Map<string, { view: OfflineTakeView; controller: AbortController | null }>();

  const set = (key: string, patch: Partial<OfflineTakeView>) => {
    const t = takes.get(key);
    if (!t) return;
    t.view = { ...t.view, ...patch };
    options.onChange?.();
  };

  const progress = (key: string) => (p: OfflineProgress) => {
    switch (p.phase) {
      case 'planned':
        return set(key, { phase: p.phase, total: p.tiles, done: 0, plannedBytes: p.bytes });
      case 'tiles':
        return set(key, { phase: p.phase, done: p.done, total: p.total, bytes: p.bytes });
      case 'whole-file':
        return set(key, { phase: p.phase, plannedBytes: p.bytes });
      case 'file':
        return set(key, { phase: p.phase, done: p.have, total: p.bytes, bytes: p.have });
      default:
        return set(key, { phase: p.phase });
    }
  };

  const prune = () => {
    const finished = [...takes].filter(([, t]) => !t.controller);
    for (const [key] of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)))
      takes.delete(key);
  };

  return {
    take(input: TakeOfflineInput): { key: string } {
      const conn = options.connection();
      if (!conn) throw options.noService();
      const area = siteArea(input.area);
      const key = JSON.stringify([input.scene, area.geometry, input.resolution]);
      if (takes.get(key)?.controller) return { key };
      const controller = new AbortController();
      takes.set(key, {
        controller,
        view: {
          key,
          sceneId: input.scene.id,
          areaLabel: area.label,
          phase: 'requesting',
          done: null,
          total: null,
          bytes: null,
          plannedBytes: null,
          error: null,
          startedAt: Date.now(),
        },
      });
      prune();
      options.offline
        .take(
          {
            scene: { kind: input.scene.kind, id: input.scene.id, aoiId: input.scene.aoiId },
            area,
            resolution: input.resolution,
          },
          {
            client: conn.client,
            serviceUrl: conn.url,
            budgetBytes: options.settings().imageryBudgetMb * 2 ** 20,
            signal: controller.signal,
            onProgress: progress(key),
          },
        )
        .then(
          () => set(key, { phase: 'stored' }),
          (e: unknown) =>
            set(key, {
              phase: controller.signal.aborted ? 'cancelled' : 'failed',
              error: e instanceof Error ? e.message : String(e),
            }),
        )
        .finally(() => {
          const t = takes.get(key);
          if (t) t.controller = null;
          options.onChange?.();
        });
      return { key };
    },
    list(): OfflineTakeView[] {
      return [...takes.values()].map((t) => t.view).sort((a, b) => b.startedAt - a.startedAt);
    },
    cancel(key: string): boolean {
      const t = takes.get(key);
      if (!t?.controller) return false;
      t.controller.abort();
      return true;
    },
    /** Stops every running take (the backend closes). */
    close(): void {
      for (const t of takes.values()) t.controller?.abort();
    },
  };
}

export type OfflineTakes = ReturnType<typeof makeOfflineTakes>;
