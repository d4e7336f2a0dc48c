/**
 * The online/offline indicator. "Online" is the backend's verdict that the service answered an
 * authenticated request (reachable AND key accepted), never just "the network is up".
 */
import { defineStore } from 'pinia';
import type { Connectivity } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { readableError } from './errors';

export const CONNECTIVITY_TEXT: Record<
  Connectivity['state'] | 'unknown',
  { label: string; tone: 'ok' | 'warn' | 'bad' | 'idle'; hint: string }
> = {
  online: { label: 'Online', tone: 'ok', hint: 'The service answers and accepts your API key.' },
  offline: {
    label: 'Offline',
    tone: 'warn',
    hint: 'The service is not reachable. Searching the mirror still works.',
  },
  unauthorized: {
    label: 'Key rejected',
    tone: 'bad',
    hint: 'The service answered but refused the API key. Enter a new key in Connection & settings.',
  },
  unconfigured: {
    label: 'Not set up',
    tone: 'idle',
    hint: 'Enter the service URL and API key in Connection & settings.',
  },
  'working-offline': {
    label: 'Working offline',
    tone: 'idle',
    hint: 'Working offline (by your choice): nothing is sent to the service. Turn off "Work offline" on the Sync screen or in Connection & settings to reconnect.',
  },
  unknown: { label: 'Checking…', tone: 'idle', hint: 'Asking the service.' },
};

/**
 * Why the service is not used now, as the start of a sentence: the user's own choice is never
 * called "not reachable" (issue 26). Null online.
 */
export const NO_SERVICE_WORDS: Record<Connectivity['state'] | 'unknown', string | null> = {
  online: null,
  offline: 'The service is not reachable',
  unauthorized: 'The service refused the API key',
  unconfigured: 'No service is set up yet',
  'working-offline': 'Working offline (by your choice)',
  unknown: 'The service is being checked',
};

export const useConnectivityStore = defineStore('connectivity', {
  state: () => ({
    current: null as Connectivity | null,
    checking: false,
    error: null as string | null,
  }),
  getters: {
    state: (s): Connectivity['state'] | 'unknown' => s.current?.state ?? 'unknown',
    text(): (typeof CONNECTIVITY_TEXT)[keyof typeof CONNECTIVITY_TEXT] {
      return CONNECTIVITY_TEXT[this.state];
    },
    online: (s) => s.current?.state === 'online',
    workingOffline: (s) => s.current?.state === 'working-offline',
    /** Why the service is not used now ("Working offline (by your choice)"); null online. */
    noServiceWords(): string | null {
      return NO_SERVICE_WORDS[this.state];
    },
    /** When the service is used again, to end a sentence: the user's switch, or its return. */
    serviceBackWords(): string {
      return this.state === 'working-offline'
        ? 'when you turn off "Work offline"'
        : 'when the service is back';
    },
  },
  actions: {
    /** Follow the backend's connectivity events; returns the unsubscribe. */
    listen(): () => void {
      return useBridge().on('connectivity.changed', (c) => this.apply(c));
    },
    /**
     * The newer of what is shown and `c`: an event and a check's answer travel separately, and
     * an answer that arrives after a newer event must not put the older state back.
     */
    apply(c: Connectivity): void {
      if (!this.current || c.checkedAt >= this.current.checkedAt) this.current = c;
    },
    /**
     * The browser's `online`/`offline` events go to the backend as signals: it checks the
     * service soon (one check for a burst) instead of at its timer. `navigator.onLine` is no
     * verdict (a link that is up says nothing of the service): the state comes from that check.
     * Returns the unsubscribe.
     */
    followNetwork(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window) {
      const signal = (e: Event): void => {
        const reason = e.type === 'online' ? 'online' : 'offline';
        void useBridge()
          .call('connectivity.networkChanged', { reason })
          .catch(() => undefined); // the timer's check still comes
      };
      target.addEventListener('online', signal);
      target.addEventListener('offline', signal);
      return () => {
        target.removeEventListener('online', signal);
        target.removeEventListener('offline', signal);
      };
    },
    async check(): Promise<void> {
      this.checking = true;
      this.error = null;
      try {
        this.apply(await useBridge().call('connectivity.check'));
      } catch (err) {
        this.error = readableError(err).message;
      } finally {
        this.checking = false;
      }
    },
  },
});
