/** `app.*`: what the app is and how it runs. */
import type { appMethods } from './contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { FirstScreen } from '../../backend/first-screen';

export type AppHandlers = HandlersFor<keyof typeof appMethods>;

export function appHandlers(deps: {
  readonly version?: string | undefined;
  readonly mode: 'electron' | 'browser';
  readonly embeddedUrl: string | null;
  /** Told when the renderer's first screen is up: what waited for it starts. */
  readonly firstScreen: Pick<FirstScreen, 'markShown'>;
}): AppHandlers {
  return {
    'app.info': () => ({
      version: deps.version ?? '0.0.0-dev',
      mode: deps.mode,
      embeddedServiceUrl: deps.embeddedUrl,
    }),
    'app.firstScreenShown': () => {
      deps.firstScreen.markShown();
      return { noted: true };
    },
  };
}
