/** `app.*`: what the app is and how it runs. */
import type { appMethods } from './contract';
import type { HandlersFor } from '../../backend/dispatch';

export type AppHandlers = HandlersFor<keyof typeof appMethods>;

export function appHandlers(deps: {
  readonly version: string | undefined;
  readonly mode: 'electron' | 'browser';
  readonly embeddedUrl: string | null;
}): AppHandlers {
  return {
    'app.info': () => ({
      version: deps.version ?? '0.0.0-dev',
      mode: deps.mode,
      embeddedServiceUrl: deps.embeddedUrl,
    }),
    // Nothing to do here: the launch (backend/launch.ts) watches for this call.
    'app.firstScreenShown': () => ({ noted: true }),
  };
}
