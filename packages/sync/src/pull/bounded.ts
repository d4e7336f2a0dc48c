/** Runs `one` over `items` in order with at most `concurrency` at a time (picture downloads). */
export async function mapBounded<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  one: (item: T) => Promise<void>,
  after?: () => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await one(items[next++]!);
      after?.();
    }
  };
  const workers = Math.min(Math.max(1, concurrency), items.length);
  await Promise.all(Array.from({ length: workers }, worker));
}
