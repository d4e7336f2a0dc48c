/**
 * happy-dom lays nothing out (every element is 0x0), and Leaflet sizes its map from the
 * element's clientWidth/clientHeight: tests that fit bounds give elements a size with this.
 * Returns the undo.
 */
export function giveElementsSize(width: number, height: number): () => void {
  const proto = HTMLElement.prototype;
  const saved = ['clientWidth', 'clientHeight'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(proto, key)] as const,
  );
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get: () => width });
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => height });
  return () => {
    for (const [key, desc] of saved) {
      if (desc) Object.defineProperty(proto, key, desc);
      else delete (proto as unknown as Record<string, unknown>)[key];
    }
  };
}
