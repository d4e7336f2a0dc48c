/**
 * Which archive scenes an order item names, the one rule for the backend (the basket, the
 * "Ordered" badge) and the renderer (the thumbnails of an order item's scenes): `item_ids` (the
 * create) and `images[].item_id` (a placed item). No Node, no DOM.
 */
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The scene ids an order's items name, in order, repeats kept. */
export function orderedSceneIds(items: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    const i = obj(item);
    for (const id of list(i['item_ids'])) if (typeof id === 'string') out.push(id);
    for (const image of list(i['images'])) {
      const id = obj(image)['item_id'];
      if (typeof id === 'string' && id) out.push(id);
    }
  }
  return out;
}
