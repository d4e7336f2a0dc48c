/** The backend's typed events (sync progress, connectivity, outbox), relayed to the renderer. */
import type { EventName, EventPayload } from '../shared/contract';

export interface BackendEvents {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Every event, for relays (IPC, SSE). */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

export function createEvents(): BackendEvents {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  return {
    on(event, listener) {
      return this.onAny((e, p) => {
        if (e === event) listener(p as never);
      });
    },
    onAny(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event, payload) {
      for (const l of [...listeners]) {
        try {
          l(event, payload);
        } catch (e) {
          // A failing listener must not stop the others, nor the sync that emitted.
          console.error(`event listener for ${event} failed:`, e);
        }
      }
    },
  };
}
