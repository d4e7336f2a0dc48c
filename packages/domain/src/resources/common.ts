/** Small shapes shared by several resources. */
import { z } from 'zod';

/** Identifiers are strings (spec part 2, conventions). */
export const Id = z.string().min(1, 'must be a non-empty id');

/** Link of a STAC item or collection: href, rel, title, type (all strings). */
export const Link = z.looseObject({
  href: z.string(),
  rel: z.string(),
  title: z.string().nullish(),
  type: z.string().nullish(),
});
export type Link = z.infer<typeof Link>;

/** cloud_delivery / cloud_info: config string, path string. */
export const CloudDelivery = z.looseObject({ config: z.string(), path: z.string() });
export type CloudDelivery = z.infer<typeof CloudDelivery>;

export const IntArray = z.array(z.number().int());
export const NumberArray = z.array(z.number());
export const StringArray = z.array(z.string());

/** A [lon, lat] centroid. */
export const Centroid = z.array(z.number()).length(2, 'a centroid is [longitude, latitude]');
