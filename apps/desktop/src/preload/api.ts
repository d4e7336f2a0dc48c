/**
 * What the preload exposes as `window.eo`: exactly `{ call, on }`, limited to the contract's
 * methods and events (their names as main passed them: ../shared/names.ts). Built from an `ipcRenderer`-like object so tests need no Electron.
 * Arguments are validated in the backend's dispatch (the renderer is not trusted); here unknown
 * names are refused early so nothing but contract calls ever reaches IPC.
 */
import { IPC_CALL, IPC_EVENT, type ContractNames } from '../shared/names';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** The rejection value: plain data (contextBridge would drop an Error subclass's fields). */
function refusal(code: 'unknown_method' | 'invalid_argument' | 'internal', message: string) {
  return { code, message };
}

export function makePreloadApi(ipc: IpcRendererLike, names: ContractNames) {
  const { methods, events: eventNames } = names;
  return {
    async call(method: unknown, input?: unknown): Promise<unknown> {
      if (typeof method !== 'string' || !methods.has(method)) {
        throw refusal('unknown_method', `unknown method: ${String(method).slice(0, 100)}`);
      }
      const r = (await ipc.invoke(IPC_CALL, method, input)) as
        { ok: true; value: unknown } | { ok: false; error: unknown } | undefined;
      if (!r || typeof r !== 'object') throw refusal('internal', 'no answer from the app');
      if (r.ok) return r.value;
      throw r.error;
    },
    on(event: unknown, listener: unknown): () => void {
      if (typeof event !== 'string' || !eventNames.has(event)) {
        throw new Error(`unknown event: ${String(event).slice(0, 100)}`);
      }
      if (typeof listener !== 'function')
        throw new Error('on(event, listener): listener must be a function');
      // Only the event's name and payload reach the page, never the IPC event object.
      const handler = (_e: unknown, name: unknown, payload: unknown) => {
        if (name === event) (listener as (p: unknown) => void)(payload);
      };
      ipc.on(IPC_EVENT, handler);
      return () => {
        ipc.removeListener(IPC_EVENT, handler);
      };
    },
  };
}
