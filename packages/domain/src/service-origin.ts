/**
 * Where a mirror's data came from: the service (its origin, `https://host:port`, or the name a
 * client gives it, such as the desktop's `embedded`) and the organisation its records belong to.
 * Data carried between laptops by file (a field package, a handed-over outbox) names the origin
 * it was made from, and is refused by a laptop whose mirror holds another's: records of another
 * organisation or service would be mixed into the mirror, and creates sent to the wrong place.
 */
import { z } from 'zod';

export const ServiceOrigin = z.strictObject({
  /** null: not known (a mirror that was never synced). */
  service: z.string().min(1).max(2048).nullable(),
  /** null: not known (no mirrored record names its organisation). */
  organisation: z.string().min(1).max(256).nullable(),
});
export type ServiceOrigin = z.infer<typeof ServiceOrigin>;

/**
 * Why data made at `from` may not go into a mirror at `to`, or null when it may: what both
 * know must be equal (a laptop that knows neither takes any origin, and adopts it).
 */
export function originMismatch(from: ServiceOrigin, to: ServiceOrigin): string | null {
  const problems: string[] = [];
  if (from.service !== null && to.service !== null && from.service !== to.service)
    problems.push(`it was made from the service ${from.service}, this laptop's is ${to.service}`);
  if (
    from.organisation !== null &&
    to.organisation !== null &&
    from.organisation !== to.organisation
  )
    problems.push(
      `it holds the records of organisation ${from.organisation}, this laptop's are of ${to.organisation}`,
    );
  return problems.length > 0 ? problems.join('; ') : null;
}
