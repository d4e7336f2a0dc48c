/**
 * The machine woke from sleep (Electron's `powerMonitor` 'resume'): the network may have
 * changed while it slept, so the backend checks the service soon instead of at its timer
 * (`connectivity.networkChanged`, debounced there). The renderer sends the page's
 * online/offline events the same way.
 */
import type { NetworkSignal } from '../shared/contract';

export interface PowerEvents {
  on(event: 'resume', listener: () => void): unknown;
}

export function forwardResume(
  power: PowerEvents,
  call: (method: 'connectivity.networkChanged', input: NetworkSignal) => Promise<unknown>,
): void {
  power.on('resume', () => {
    // A backend that is shutting down has nothing to check: the signal is only a hint.
    call('connectivity.networkChanged', { reason: 'resume' }).catch(() => undefined);
  });
}
