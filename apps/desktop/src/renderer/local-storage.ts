/**
 * What the page remembers between launches in localStorage (the maps' layers and views, the time
 * display): one place for the two ways storage fails. A browser that refuses it (locked down)
 * reads as nothing stored; a refused or full write is dropped, and the choice holds for this
 * session only.
 */
export function readStored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // refused or full: remembered for this session only
  }
}
