/** Whether the configured service answers, with the key: checked now, and announced on change. */
import { z } from 'zod';
import { none } from './fields';

export const Connectivity = z.object({
  state: z.enum(['online', 'offline', 'unauthorized', 'unconfigured']),
  checkedAt: z.string(),
  /** Why, when not online, in words a user can act on. */
  message: z.string().optional(),
});
export type Connectivity = z.infer<typeof Connectivity>;

export const connectionMethods = {
  'connectivity.check': { input: none, output: Connectivity },
} as const;

export const connectionEvents = {
  'connectivity.changed': Connectivity,
} as const;
