/**
 * The system's colour scheme (`prefers-color-scheme`) for what CSS cannot colour: the map's
 * canvases (offline basemap, footprints) pick their palette from it at each draw and redraw
 * when it changes.
 */
const query =
  typeof globalThis.matchMedia === 'function'
    ? globalThis.matchMedia('(prefers-color-scheme: dark)')
    : null;

export function prefersDark(): boolean {
  return query?.matches ?? false;
}

/** Calls `listener` when the scheme changes; returns the undo. */
export function onSchemeChange(listener: () => void): () => void {
  if (!query) return () => undefined;
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
