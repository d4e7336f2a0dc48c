/**
 * Which service the mirror's data came from. Switching the service URL keeps the mirror (the
 * outbox and what this client created live there too), so the sync status must not present
 * the old service's "last complete sync" as the new one's: each resource's completion is
 * recorded with the service it was against, and every service pulled from since the last clear
 * is remembered, so the Sync screen (and Catalog, AOIs and the Outbox) can say the mirror holds
 * another service's data. Each create queued while a service was set is recorded as that
 * service's: after a switch it is held (never sent to the new service) and marked, until the
 * user switches back or cancels it. Services are named by their key binding (an origin, or
 * `embedded`).
 */
import { RESOURCES, type ResourceStatus } from '@eo/sync';
import type { SyncResource, SyncStatus } from '../shared/contract';
import type { DesktopStore, MirrorSourceState } from './local-store';

export function makeMirrorSource(options: {
  readonly store: DesktopStore;
  /** The configured service's binding now (null: no service). */
  readonly current: () => string | null;
  /** Whether the mirror holds any pulled record. */
  readonly hasData: () => boolean;
}) {
  const { store, current } = options;
  let state: MirrorSourceState = store.mirrorSource() ?? legacy();

  /** A mirror synced before this was recorded: it was synced from the service configured now. */
  function legacy(): MirrorSourceState {
    const binding = current();
    const initial: MirrorSourceState =
      binding !== null && options.hasData()
        ? {
            sources: [binding],
            completedFor: Object.fromEntries(RESOURCES.map((r) => [r, binding])),
          }
        : { sources: [], completedFor: {} };
    store.saveMirrorSource(initial);
    return initial;
  }

  function save(next: MirrorSourceState): void {
    state = next;
    store.saveMirrorSource(next);
  }

  /** The service `entryId` was queued for, when it is not the one set now; else null. */
  function queuedElsewhere(entryId: string): string | null {
    const binding = state.queuedFor?.[entryId];
    return binding !== undefined && binding !== current() ? binding : null;
  }

  const completions = (states: readonly ResourceStatus[]) =>
    new Map<SyncResource, number | null>(states.map((s) => [s.resource, s.lastCompleteAtUs]));

  return {
    /**
     * A sync against `binding` starts: it may write into the mirror. Returns what `finished`
     * needs to tell which resources this sync completed.
     */
    started(binding: string, states: readonly ResourceStatus[]) {
      if (!state.sources.includes(binding)) {
        save({ ...state, sources: [...state.sources, binding] });
      }
      const before = completions(states);
      return {
        finished(after: readonly ResourceStatus[]): void {
          const completedFor = { ...state.completedFor };
          for (const [resource, at] of completions(after)) {
            if (at !== null && at !== before.get(resource)) completedFor[resource] = binding;
          }
          save({ ...state, completedFor });
        },
      };
    },
    cleared(): void {
      // Clearing the mirror keeps the outbox, and so what its entries were queued for.
      save({
        sources: [],
        completedFor: {},
        ...(state.queuedFor ? { queuedFor: state.queuedFor } : {}),
      });
    },
    /** A create was queued (or its input saved): the first time, it is the current service's. */
    queued(entryId: string): void {
      const binding = current();
      if (binding === null || state.queuedFor?.[entryId] !== undefined) return;
      save({ ...state, queuedFor: { ...state.queuedFor, [entryId]: binding } });
    },
    queuedElsewhere,
    /**
     * Of the entries still to send (`waiting`), those queued for another service: a flush holds
     * them. Entries no longer waiting are forgotten here (sent, or cancelled).
     */
    heldIds(waiting: readonly string[]): string[] {
      const recorded = state.queuedFor ?? {};
      const kept = Object.fromEntries(
        waiting
          .filter((id) => recorded[id] !== undefined)
          .map((id) => [id, recorded[id] as string]),
      );
      if (Object.keys(kept).length !== Object.keys(recorded).length) {
        save({ ...state, queuedFor: kept });
      }
      return waiting.filter((id) => queuedElsewhere(id) !== null);
    },
    /** The status as true for the configured service. */
    view(status: SyncStatus): SyncStatus {
      const binding = current();
      const others = state.sources.filter((s) => s !== binding);
      const hasData = status.resources.some((r) => r.count > 0);
      return {
        ...status,
        resources: status.resources.map((r) =>
          state.completedFor[r.resource] === binding && binding !== null
            ? r
            : { ...r, lastCompleteAt: null },
        ),
        ...(hasData && others.length > 0 ? { otherServices: others } : {}),
      };
    },
  };
}
