/** Whether the configured service answers, with the key: announced after every check. */
import { z } from 'zod';
import { none } from '../../shared/contract/fields';

export const Connectivity = z.object({
  /**
   * `working-offline`: the user's "Work offline" switch is on, so nothing is sent to the service
   * (no checks, no syncs, no batches) until it is turned off.
   */
  state: z.enum(['online', 'offline', 'unauthorized', 'unconfigured', 'working-offline']),
  /** When the service was last asked (every check is announced, so this stays current). */
  checkedAt: z.string(),
  /** Since when the state (and message) read as they do. */
  since: z.string(),
  /** Why, when not online, in words a user can act on. */
  message: z.string().optional(),
  /** The technical reason behind `message` (a network error's code): a tooltip, not the text. */
  details: z.string().optional(),
});
export type Connectivity = z.infer<typeof Connectivity>;

/**
 * What the operating system said about the network: the page's `online`/`offline` events, the
 * machine waking from sleep. Never a verdict (a link that is up says nothing of the service):
 * the backend checks soon instead of at its timer, one check for a burst of signals.
 */
export const NetworkSignal = z.object({ reason: z.enum(['online', 'offline', 'resume']) }).strict();
export type NetworkSignal = z.infer<typeof NetworkSignal>;

export const connectionMethods = {
  'connectivity.check': { input: none, output: Connectivity },
  /** `scheduled`: a check was brought forward (false: none to make, or one is due as soon). */
  'connectivity.networkChanged': {
    input: NetworkSignal,
    output: z.object({ scheduled: z.boolean() }),
  },
} as const;

export const connectionEvents = {
  'connectivity.changed': Connectivity,
} as const;
