/**
 * Taking sites offline from the app (`rasters.take`, `.takes`, `.pause`, `.resume`, `.cancel`):
 * each take runs @eo/sync's `mirror.offline.take` in the background over the current connection
 * (its client, its service URL, the imagery budget of the settings), its latest step kept for
 * the renderer to show (progress, then stored or why not). The same site asked twice while
 * running is the same take (sync refuses a second one anyway).
 *
 * - Pause stops the take and keeps its row and part file: sync journals every tile as it lands,
 *   so `resume` (the same request again, rebuilt from the row) fetches only what is missing. A
 *   take cut by a quit or a crash is the same unfinished row: resumed the same way after a
 *   restart (sync's own resume after kill -9).
 * - Cancel stops it and removes what it fetched (the row, the part file).
 * - Its raster reads are the link's best measure: the bytes over the time its tiles took go to
 *   the connection's link meter (link-meter.ts) for the next estimate.
 */
import { areaAround, type Mirror, type OfflineProgress, type SiteArea } from '@eo/sync';
import type { OfflineTakeView, TakeOfflineInput } from '../shared/contract';
import type { LinkMeter } from './link-meter';
import type { StoredSettings } from './local-store';

type OfflineApi = Mirror['offline'];
type SiteRequest = Parameters<OfflineApi['take']>[0];

export interface TakeConnection {
  readonly url: string;
  readonly client: Parameters<OfflineApi['take']>[1]['client'];
  /** The connection's link meter (told what the take's reads measured). */
  readonly link?: Pick<LinkMeter, 'transferred'> | undefined;
}

export interface OfflineTakesOptions {
  readonly offline: Pick<OfflineApi, 'take'> & Partial<Pick<OfflineApi, 'get' | 'remove'>>;
  readonly connection: () => TakeConnection | null;
  /** Why there is no connection (thrown as the call's error). */
  readonly noService: () => Error;
  readonly settings: () => Pick<StoredSettings, 'imageryBudgetMb'>;
  /** Told when a take moves on (the renderer reloads its list). */
  readonly onChange?: () => void;
  readonly now?: () => number;
}

/** Finished takes kept for the renderer to read how they ended. */
const KEEP_FINISHED = 20;

/** Why a take was stopped by the user (the abort's reason). */
type Stop = 'pause' | 'cancel';

function siteArea(area: TakeOfflineInput['area']): SiteArea {
  return area.kind === 'around'
    ? areaAround(area.lon, area.lat, area.radiusM)
    : { geometry: area.geometry, label: area.label };
}

/** `native` or `<N>m` (as sync stores it) back to the request's resolution. */
export function resolutionOf(text: string): SiteRequest['resolution'] {
  const metres = /^(\d+(?:\.\d+)?)m$/.exec(text);
  return metres ? { metres: Number(metres[1]) } : 'native';
}

/** One key per site: scene, area and resolution (what sync resumes by). */
function keyOf(req: SiteRequest): string {
  const { kind, id, aoiId } = req.scene;
  return JSON.stringify([{ kind, id, aoiId: aoiId ?? null }, req.area.geometry, req.resolution]);
}

interface Running {
  view: OfflineTakeView;
  controller: AbortController | null;
}

export function makeOfflineTakes(options: OfflineTakesOptions) {
  const now = options.now ?? Date.now;
  const takes = new Map<string, Running>();

  const set = (key: string, patch: Partial<OfflineTakeView>) => {
    const t = takes.get(key);
    if (!t) return;
    t.view = { ...t.view, ...patch };
    options.onChange?.();
  };

  /** The take's steps into its view; its reads' bytes and time into the link meter. */
  function follow(key: string, conn: TakeConnection) {
    let first: { at: number; bytes: number } | null = null;
    let last = { at: 0, bytes: 0 };
    const measured = () => {
      if (first && last.bytes > first.bytes)
        conn.link?.transferred(last.bytes - first.bytes, last.at - first.at);
      first = null;
    };
    const onProgress = (p: OfflineProgress) => {
      const moved = (bytes: number) => {
        last = { at: now(), bytes };
        first ??= last;
      };
      switch (p.phase) {
        case 'requesting':
          return set(key, { phase: p.phase, rasterId: p.rasterId });
        case 'planned':
          return set(key, { phase: p.phase, total: p.tiles, done: 0, plannedBytes: p.bytes });
        case 'tiles':
          moved(p.bytes);
          return set(key, { phase: p.phase, done: p.done, total: p.total, bytes: p.bytes });
        case 'whole-file':
          return set(key, { phase: p.phase, plannedBytes: p.bytes });
        case 'file':
          moved(p.have);
          return set(key, { phase: p.phase, done: p.have, total: p.bytes, bytes: p.have });
        default:
          measured();
          return set(key, { phase: p.phase });
      }
    };
    return { onProgress, measured };
  }

  const prune = () => {
    const finished = [...takes].filter(([, t]) => !t.controller);
    for (const [key] of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)))
      takes.delete(key);
  };

  /** Runs one request (new, or an unfinished row's again). */
  function start(req: SiteRequest, rasterId: string | null): { key: string } {
    const conn = options.connection();
    if (!conn) throw options.noService();
    const key = keyOf(req);
    if (takes.get(key)?.controller) return { key };
    const controller = new AbortController();
    takes.set(key, {
      controller,
      view: {
        key,
        rasterId,
        sceneId: req.scene.id,
        areaLabel: req.area.label,
        phase: 'requesting',
        done: null,
        total: null,
        bytes: null,
        plannedBytes: null,
        error: null,
        startedAt: now(),
      },
    });
    prune();
    const steps = follow(key, conn);
    options.offline
      .take(req, {
        client: conn.client,
        serviceUrl: conn.url,
        budgetBytes: options.settings().imageryBudgetMb * 2 ** 20,
        signal: controller.signal,
        onProgress: steps.onProgress,
      })
      .then(
        () => set(key, { phase: 'stored' }),
        (e: unknown) => {
          steps.measured();
          const stop = controller.signal.aborted ? (controller.signal.reason as Stop) : null;
          if (stop === 'cancel') {
            const id = takes.get(key)?.view.rasterId;
            if (id) options.offline.remove?.(id);
            return set(key, { phase: 'cancelled', error: null });
          }
          if (stop === 'pause') return set(key, { phase: 'paused', error: null });
          set(key, { phase: 'failed', error: e instanceof Error ? e.message : String(e) });
        },
      )
      .finally(() => {
        const t = takes.get(key);
        if (t) t.controller = null;
        options.onChange?.();
      });
    return { key };
  }

  function stop(key: string, why: Stop): boolean {
    const t = takes.get(key);
    if (!t?.controller) return false;
    t.controller.abort(why);
    return true;
  }

  return {
    take(input: TakeOfflineInput): { key: string } {
      const scene = { kind: input.scene.kind, id: input.scene.id, aoiId: input.scene.aoiId };
      return start({ scene, area: siteArea(input.area), resolution: input.resolution }, null);
    },
    /**
     * Takes up an unfinished offline raster where it stopped: paused here, or cut by a quit or
     * a crash (the row and its part file are what sync resumes from).
     */
    resume(rasterId: string): { key: string } {
      const row = options.offline.get?.(rasterId);
      if (!row) throw new Error(`no offline raster ${rasterId}`);
      if (row.state === 'stored') throw new Error(`${row.area.label} is offline already`);
      const scene = {
        kind: row.scene.kind,
        id: row.scene.ref,
        aoiId: row.scene.aoiId ?? undefined,
      };
      return start({ scene, area: row.area, resolution: resolutionOf(row.resolution) }, row.id);
    },
    list(): OfflineTakeView[] {
      return [...takes.values()].map((t) => t.view).sort((a, b) => b.startedAt - a.startedAt);
    },
    /** Stops a take and keeps what it fetched (resumed later, here or after a restart). */
    pause: (key: string) => stop(key, 'pause'),
    /** Stops a take and removes what it fetched. */
    cancel: (key: string) => stop(key, 'cancel'),
    /** Stops every running take (the backend closes): kept, as a pause. */
    close(): void {
      for (const t of takes.values()) t.controller?.abort('pause');
    },
  };
}

export type OfflineTakes = ReturnType<typeof makeOfflineTakes>;
