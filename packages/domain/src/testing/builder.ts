import { type BuildOptions, type Rng, rngOf } from './rng';

/**
 * `build(overrides?, options?)` gives a realistic object (every field, plausible values);
 * `build.minimal(overrides?, options?)` gives one with only the schema's required fields.
 *
 * Overrides are merged shallowly, last: they win over generated values, and a key set to
 * `undefined` is left out of the JSON. Builders that create children (an order's items, a
 * visualization's assets) read the parent's overridden ids, so children stay consistent.
 */
export interface Builder<T extends object, M extends object = T> {
  (overrides?: Partial<T>, options?: BuildOptions): T;
  minimal(overrides?: Partial<M>, options?: BuildOptions): M;
}

export function defineBuilder<T extends object, M extends object = T>(
  realistic: (rng: Rng, overrides: Partial<T>) => T,
  minimal: (rng: Rng, overrides: Partial<M>) => M,
): Builder<T, M> {
  const build = (overrides: Partial<T> = {}, options?: BuildOptions): T => ({
    ...realistic(rngOf(options), overrides),
    ...overrides,
  });
  return Object.assign(build, {
    minimal: (overrides: Partial<M> = {}, options?: BuildOptions): M => ({
      ...minimal(rngOf(options), overrides),
      ...overrides,
    }),
  });
}
