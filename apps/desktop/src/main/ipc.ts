/**
 * The IPC relay: `eo:call` from the preload is checked in main for who sent it (the app's own
 * window) and what it names (a contract method, one argument), then relayed as is. The argument
 * is validated once, by the backend's dispatch (`backend/dispatch.ts`), the same check browser
 * mode goes through; main parses nothing of it. Backend events go to the window after their
 * payload is checked.
 */
import { IPC_CALL, IPC_EVENT } from '../shared/names';
import {
  ContractError,
  events,
  isEventName,
  isMethod,
  type CallResult,
  type EventName,
} from '../shared/contract';

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** What main looks at in an IPC event: who sent it. */
export interface IpcEventLike {
  sender: { id: number };
  senderFrame?: { url: string } | null;
}

export function registerIpc(
  ipcMain: IpcMainLike,
  deps: {
    call(method: string, input: unknown): Promise<CallResult<unknown>>;
    isTrustedSender(event: IpcEventLike): boolean;
  },
): () => void {
  ipcMain.handle(IPC_CALL, async (event, method, input, ...extra): Promise<CallResult<unknown>> => {
    if (!deps.isTrustedSender(event)) {
      return { ok: false, error: { code: 'internal', message: 'refused: not the app window' } };
    }
    if (!isMethod(method)) {
      const unknown = `unknown method: ${String(method).slice(0, 100)}`;
      return { ok: false, error: new ContractError('unknown_method', unknown).toJSON() };
    }
    if (extra.length > 0) {
      const error = new ContractError('invalid_argument', 'one argument per call');
      return { ok: false, error: error.toJSON() };
    }
    return deps.call(method, input);
  });
  return () => ipcMain.removeHandler(IPC_CALL);
}

/** Sends a backend event to the window, if it is one of the contract's and its payload fits. */
export function relayEvent(
  send: (channel: string, event: EventName, payload: unknown) => void,
  event: unknown,
  payload: unknown,
): boolean {
  if (!isEventName(event)) return false;
  if (!events[event].safeParse(payload).success) return false;
  send(IPC_EVENT, event, payload);
  return true;
}
