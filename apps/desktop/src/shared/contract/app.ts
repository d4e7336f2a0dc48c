/** What the app is: its version, how it runs, the service it started itself. */
import { z } from 'zod';
import { none } from './fields';

export const AppInfo = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  /** The reference service the app started itself because none was configured. */
  embeddedServiceUrl: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const appMethods = {
  'app.info': { input: none, output: AppInfo },
} as const;
