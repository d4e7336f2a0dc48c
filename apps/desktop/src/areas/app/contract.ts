/** What the app is: its version, how it runs, the service it started itself. */
import { RecordLink } from '@eo/domain';
import { z } from 'zod';
import { none } from '../../shared/contract/fields';

export const AppInfo = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  /** The reference service the app started itself because none was configured. */
  embeddedServiceUrl: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const appMethods = {
  'app.info': { input: none, output: AppInfo },
  /**
   * The renderer's first screen is up (its results painted, or given up waiting): what the
   * launch puts off until then starts now (the embedded service, `backend/launch.ts`), so it
   * does not take the cores the first paint needs.
   */
  'app.firstScreenShown': { input: none, output: z.object({ noted: z.literal(true) }) },
} as const;

export const appEvents = {
  /**
   * A record link (`eo-field-desk://…`) the system handed the app (Electron main: the app is
   * the scheme's handler); main checked it with @eo/domain's `parseRecordLink`. Browser mode
   * has no such event: there the link is the page's route `#/link/…`.
   */
  'link.opened': RecordLink,
} as const;
