/**
 * 4.8 POST /v0/orders. Which order item fields are required is not shown; our rules:
 *
 * - Always: `project_id`, `name`, `geometry` (a FeatureCollection of areas: Polygon or
 *   MultiPolygon features that are valid areas, the same rule as AOI geometries).
 * - The item type is not an input field; it follows from the fields:
 *   `item_ids` given -> ARCHIVE; `recurrence` other than ONCE -> RECURRING; else TASKING.
 * - TASKING needs `start_date` and `end_date`; RECURRING also needs `no_of_occurrences`.
 * - ARCHIVE must not carry a recurrence other than ONCE or more than one occurrence; neither
 *   may TASKING (recurrence ONCE or none) carry more than one occurrence.
 * - `end_date` is after `start_date`.
 */
import { z } from 'zod';
import type { OrderItemType } from '../enums';
import { AreaFeatureCollectionInput, positionCount } from '../geometry';
import { DELIVERY_SPEEDS, RECURRENCES } from '../known-values';
import { LIMITS } from '../limits';
import { parseRfc3339 } from '../time/codecs';
import { Rfc3339 } from '../time/schemas';
import { CloudPathString } from './cloud-path';

export const CloudDeliveryInput = z.strictObject({
  config: z.string().min(1, 'config must not be empty'),
  path: CloudPathString,
});
export type CloudDeliveryInput = z.infer<typeof CloudDeliveryInput>;

const OrderItemInputFields = z.strictObject({
  project_id: z.string().min(1, 'project_id is required'),
  name: z.string().trim().min(1, 'name is required').max(200, 'name is at most 200 characters'),
  geometry: AreaFeatureCollectionInput,
  recurrence: z.enum(RECURRENCES).optional(),
  start_date: Rfc3339.optional(),
  end_date: Rfc3339.optional(),
  no_of_occurrences: z.number().int().min(1).max(366).optional(),
  cloud_cover: z
    .number()
    .min(0, 'cloud_cover is a percentage >= 0')
    .max(100, 'cloud_cover is a percentage <= 100')
    .optional(),
  off_nadir: z
    .number()
    .min(0, 'off_nadir is degrees >= 0')
    .max(60, 'off_nadir is degrees <= 60')
    .optional(),
  bandset: z.strictObject({ bandset_id: z.string().min(1) }).optional(),
  delivery_speed: z.enum(DELIVERY_SPEEDS).optional(),
  usecase: z.string().min(1).max(100).optional(),
  item_ids: z
    .array(z.string().min(1))
    .min(1, 'item_ids needs at least one id; omit it for tasking')
    .max(LIMITS.maxIdsPerFilter)
    .optional(),
  cloud_delivery: CloudDeliveryInput.optional(),
});

/**
 * Recurrence values that mean "does not recur": ours (ONCE) and the provider's NOT_APPLICABLE
 * (`dialect.ts`). Only ONCE passes our service's own request schema.
 */
export const NON_RECURRING: ReadonlySet<string> = new Set(['ONCE', 'NOT_APPLICABLE']);

/** The item type an input describes (see the rules above). */
export function orderItemTypeOf(input: {
  item_ids?: readonly string[] | undefined;
  recurrence?: string | undefined;
}): OrderItemType {
  if (input.item_ids !== undefined) return 'ARCHIVE';
  if (input.recurrence !== undefined && !NON_RECURRING.has(input.recurrence)) return 'RECURRING';
  return 'TASKING';
}

type OrderItemFields = z.infer<typeof OrderItemInputFields>;
type OpenItemFields = Omit<OrderItemFields, 'recurrence' | 'delivery_speed' | 'usecase'> & {
  recurrence?: string | undefined;
  delivery_speed?: string | undefined;
  usecase?: string | undefined;
};

/** The rules between fields (see the top of this file), shared by every dialect's schema. */
function checkOrderItem(item: OpenItemFields, ctx: z.RefinementCtx): void {
  const type = orderItemTypeOf(item);
  const need = (field: keyof typeof item, why: string) => {
    if (item[field] === undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required ${why}` });
  };
  if (type === 'TASKING') {
    need('start_date', 'for a tasking item');
    need('end_date', 'for a tasking item');
    // Like the archive rule below: several occurrences without a recurrence was silently
    // accepted as a one-time tasking item, although the client most likely meant to recur.
    if (item.no_of_occurrences !== undefined && item.no_of_occurrences > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['no_of_occurrences'],
        message:
          'a one-time tasking item has one occurrence; set recurrence (e.g. WEEKLY) to recur',
      });
    }
  } else if (type === 'RECURRING') {
    need('start_date', 'for a recurring item');
    need('end_date', 'for a recurring item');
    need('no_of_occurrences', 'for a recurring item');
  } else {
    if (item.recurrence !== undefined && !NON_RECURRING.has(item.recurrence)) {
      ctx.addIssue({
        code: 'custom',
        path: ['recurrence'],
        message: 'an archive item (with item_ids) cannot recur',
      });
    }
    if (item.no_of_occurrences !== undefined && item.no_of_occurrences > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['no_of_occurrences'],
        message: 'an archive item (with item_ids) has one occurrence',
      });
    }
  }
  if (item.start_date && item.end_date) {
    try {
      if (parseRfc3339(item.end_date) <= parseRfc3339(item.start_date)) {
        ctx.addIssue({
          code: 'custom',
          path: ['end_date'],
          message: 'end_date must be after start_date',
        });
      }
    } catch {
      // Malformed dates are already reported by their own field schemas.
    }
  }
}

export const OrderItemInput = OrderItemInputFields.superRefine(checkOrderItem);
export type OrderItemInput = z.infer<typeof OrderItemInput>;

/** An order's geometries together stay under `LIMITS.maxOrderVertices` (every dialect). */
function checkOrderPositions(
  req: {
    order_items: Array<{
      geometry: { features: Array<{ geometry: Parameters<typeof positionCount>[0] }> };
    }>;
  },
  ctx: z.RefinementCtx,
): void {
  const n = req.order_items.reduce(
    (sum, item) => sum + item.geometry.features.reduce((m, f) => m + positionCount(f.geometry), 0),
    0,
  );
  if (n > LIMITS.maxOrderVertices) {
    ctx.addIssue({
      code: 'custom',
      path: ['order_items'],
      message: `an order's geometries have at most ${LIMITS.maxOrderVertices} positions together; these have ${n}`,
    });
  }
}

/** `order_items` over one item schema: our service's, or a client dialect's (below). */
function orderItemsOf<Item extends z.ZodType>(item: Item) {
  return z
    .array(item)
    .min(1, 'an order needs at least one order item')
    .max(LIMITS.maxOrderItems, `an order has at most ${LIMITS.maxOrderItems} items`);
}

/** The fields of an order request, before the order-wide checks (extended per dialect below). */
const CreateOrderFields = z.strictObject({
  order_items: orderItemsOf(OrderItemInput),
  dry_run: z.boolean().default(false),
});

export const CreateOrderRequest = CreateOrderFields.superRefine(checkOrderPositions);
export type CreateOrderRequest = z.infer<typeof CreateOrderRequest>;
export type CreateOrderRequestInput = z.input<typeof CreateOrderRequest>;

/**
 * Client side (`dialect.ts`): `recurrence` and `delivery_speed` are values the spec leaves open
 * (2.14), so a client only checks they are non-empty strings and warns about a value its service
 * profile does not list; the service decides. Our service keeps its own closed lists above.
 */
const OpenOrderItemFields = OrderItemInputFields.extend({
  recurrence: z.string().min(1, 'recurrence must not be empty').optional(),
  delivery_speed: z.string().min(1, 'delivery_speed must not be empty').optional(),
});
export const OpenOrderItemInput = OpenOrderItemFields.superRefine(checkOrderItem);
export const OpenCreateOrderRequest = CreateOrderFields.extend({
  order_items: orderItemsOf(OpenOrderItemInput),
}).superRefine(checkOrderPositions);

export type OpenOrderItemInput = z.infer<typeof OpenOrderItemInput>;
export type OpenCreateOrderRequest = z.infer<typeof OpenCreateOrderRequest>;

/** The provider's service (`provider-v0`) also requires `usecase` on every item. */
export const ProviderOrderItemInput = OpenOrderItemFields.extend({
  usecase: z
    .string({ error: 'usecase is required by this service' })
    .min(1, 'usecase is required by this service')
    .max(100),
}).superRefine(checkOrderItem);
export const ProviderCreateOrderRequest = CreateOrderFields.extend({
  order_items: orderItemsOf(ProviderOrderItemInput),
}).superRefine(checkOrderPositions);
