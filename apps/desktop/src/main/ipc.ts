/**
 * The IPC relay: `eo:call` from the preload is checked (sender, method, argument against the
 * contract) in main before the backend sees it; bad arguments are answered with the field paths
 * and never passed on. Backend events go to the window after their payload is checked.
 */
import { IPC_CALL, IPC_EVENT } from '../shared/names';
import {
  ContractError,
  events,
  isEventName,
  parseInput,
  toContractError,
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
    let parsed: unknown;
    try {
      if (extra.length > 0) throw new ContractError('invalid_argument', 'one argument per call');
      parsed = parseInput(method, input);
    } catch (e) {
      return { ok: false, error: toContractError(e).toJSON() };
    }
    return deps.call(method as string, parsed);
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
