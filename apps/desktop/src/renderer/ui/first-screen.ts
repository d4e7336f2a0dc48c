/**
 * When the first screen has shown what it is for (the catalog: its results listed and their
 * footprints drawn, the frame after them painted). App loads the other screens' code and the
 * first screen's later parts only then, so their modules are not evaluated between the results
 * arriving and their first paint. A first screen that never shows results (the settings of a
 * first run) lets them load `fallbackMs` after start instead.
 */
import { ref, type Ref } from 'vue';

let shown!: () => void;
const firstShown = new Promise<void>((resolve) => (shown = resolve));
/** `firstScreenUp()`'s answer: set at once by the mark, or by its fallback once armed. */
const up = ref(false);
let fallbackArmed = false;

/** The results are on screen and painted: marks `eo:results-shown` (the benchmarks read it). */
export function markResultsShown(): void {
  globalThis.performance?.mark?.('eo:results-shown');
  markFirstScreenUp();
}

/**
 * The first screen is up without results (its first search failed, and the list says why):
 * what waits for it goes ahead at once, not at the fallback; no mark for the benchmarks.
 */
export function markFirstScreenUp(): void {
  up.value = true;
  shown();
}

/** How long what waits for the first screen waits at most (a first screen without results). */
export const FIRST_SCREEN_FALLBACK_MS = 3_000;

/** Resolves once the first screen showed its results, or after `fallbackMs`, whichever is first. */
export function firstScreenShown(fallbackMs = FIRST_SCREEN_FALLBACK_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fallback = new Promise<void>((resolve) => (timer = setTimeout(resolve, fallbackMs)));
  return Promise.race([firstShown, fallback]).finally(() => clearTimeout(timer));
}

/**
 * `firstScreenShown()` as one ref for the page, for templates and watchers: what would take the
 * CPU or a connection from the first screen (pictures, the offline imagery) waits for it. True
 * from the first render of what mounts later.
 */
export function firstScreenUp(): Readonly<Ref<boolean>> {
  if (!fallbackArmed) {
    fallbackArmed = true;
    void firstScreenShown().then(() => (up.value = true));
  }
  return up;
}
