/**
 * The renderer's first screen, as the backend waits for it: what would take a core while the
 * screen is drawn starts after it (the first connectivity check, which loads the HTTP client and
 * asks the service; the deferred embedded service, `launch.ts`). Shown when the renderer says so
 * (`app.firstScreenShown`, sent once its results are painted), or `waitMs` after launch when no
 * renderer does (a window that never shows the catalog, a renderer that failed).
 */

/** How long a launch waits for the renderer's word (the renderer's own fallback is 3 s too). */
export const FIRST_SCREEN_WAIT_MS = 3_000;

export interface FirstScreen {
  /** Resolves once the first screen is up, or the wait ran out. */
  readonly shown: Promise<void>;
  /** The renderer said so (again: nothing more). */
  markShown(): void;
  /** The backend closes: the wait's timer goes (`shown` may never resolve then). */
  close(): void;
}

/** `waitMs` null: nothing waits (a backend driven without a renderer: tools, tests). */
export function waitForFirstScreen(waitMs: number | null): FirstScreen {
  let markShown!: () => void;
  const shown = new Promise<void>((resolve) => (markShown = resolve));
  if (waitMs === null) {
    markShown();
    return { shown, markShown: () => undefined, close: () => undefined };
  }
  const timer = setTimeout(() => markShown(), waitMs);
  timer.unref?.();
  return {
    shown,
    markShown() {
      clearTimeout(timer);
      markShown();
    },
    close: () => clearTimeout(timer),
  };
}
