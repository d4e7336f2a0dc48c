/** Bounded waits for the server's tests: what never happened is named, well inside a timeout. */

/** Resolves with `p`'s result, or rejects saying what never happened within `ms`. */
export function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
    }),
  ]);
}

/** Resolves once `ready()` holds (checked every 5 ms), or fails saying what never happened. */
export async function until(ready: () => boolean, what: string, withinMs: number): Promise<void> {
  const end = Date.now() + withinMs;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`within ${withinMs} ms, never: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
