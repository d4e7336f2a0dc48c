/** Deliveries (spec 2.12): asynchronous delivery of catalog entries or order items. */
import { z } from 'zod';
import { IsoTimestamp } from '../time/schemas';
import { CloudDelivery, Id } from './common';

export const Delivery = z.looseObject({
  delivery_id: Id,
  catalog_id: z.string().nullish(),
  task_id: z.string().nullish(),
  cloud_delivery: CloudDelivery.nullish(),
  status: z.string(),
  target_path: z.string().nullish(),
  created_at: IsoTimestamp.nullish(),
  updated_at: IsoTimestamp.nullish(),
  created_by: z.string().nullish(),
  updated_by: z.string().nullish(),
});
export type Delivery = z.infer<typeof Delivery>;
