/**
 * Price of an order item (our formula; the spec shows only the fields):
 *
 *   billable_km2 = max(area_km2, MIN_BILLABLE_KM2[type])
 *   base_amount  = billable_km2 × RATE_PER_KM2[type] × occurrences   (1 unless RECURRING)
 *   uplift.amount = base_amount × uplift.percentage / 100            (each rule that applies)
 *   final_amount = base_amount + Σ uplift.amount
 *   tokens_used  = ceil(final_amount)                                (1 token per currency unit)
 *   order.total_amount = Σ final_amount of its items
 *
 * Every amount is rounded to cents. `area_km2` is the geodesic area of the item's
 * FeatureCollection (the sum over its features).
 */
import type { DeliverySpeed, OrderItemType, Uplift } from '@eo/domain';
import type { z } from 'zod';
import type { Satellite } from '../reference/catalog';

export const RATE_PER_KM2: Readonly<Record<OrderItemType, number>> = {
  ARCHIVE: 2.5,
  TASKING: 8,
  RECURRING: 8,
};

/** Smallest area billed: a satellite is tasked for at least this much. */
export const MIN_BILLABLE_KM2: Readonly<Record<OrderItemType, number>> = {
  ARCHIVE: 1,
  TASKING: 25,
  RECURRING: 25,
};

export type UpliftOut = z.input<typeof Uplift>;

interface UpliftRule {
  readonly item_id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly percentage: number;
  applies(p: PricingInput): boolean;
}

export interface PricingInput {
  readonly type: OrderItemType;
  readonly areaKm2: number;
  readonly occurrences: number;
  readonly deliverySpeed: DeliverySpeed;
  /** The requested maximum cloud cover (null: none given). */
  readonly cloudCover: number | null;
  /** The requested maximum off-nadir angle (null: none given). */
  readonly offNadir: number | null;
  readonly satellite: Satellite;
}

const tasked = (p: PricingInput) => p.type !== 'ARCHIVE';

/** Thresholds of the acquisition-constraint uplifts. */
export const STRICT_CLOUD_COVER = 10;
export const LOW_OFF_NADIR = 15;
export const VERY_HIGH_RESOLUTION_GSD = 1;

export const UPLIFT_RULES: readonly UpliftRule[] = [
  {
    item_id: 'uplift-delivery-priority',
    title: 'Priority delivery',
    subtitle: 'Processed ahead of standard orders',
    percentage: 25,
    applies: (p) => p.deliverySpeed === 'PRIORITY',
  },
  {
    item_id: 'uplift-delivery-express',
    title: 'Express delivery',
    subtitle: 'Processed and delivered first',
    percentage: 50,
    applies: (p) => p.deliverySpeed === 'EXPRESS',
  },
  {
    item_id: 'uplift-strict-cloud-cover',
    title: 'Strict cloud cover',
    subtitle: `Cloud cover at most ${STRICT_CLOUD_COVER}%`,
    percentage: 20,
    applies: (p) => tasked(p) && p.cloudCover !== null && p.cloudCover <= STRICT_CLOUD_COVER,
  },
  {
    item_id: 'uplift-low-off-nadir',
    title: 'Low off-nadir angle',
    subtitle: `Off-nadir angle at most ${LOW_OFF_NADIR}°`,
    percentage: 15,
    applies: (p) => tasked(p) && p.offNadir !== null && p.offNadir <= LOW_OFF_NADIR,
  },
  {
    item_id: 'uplift-very-high-resolution',
    title: 'Very high resolution',
    subtitle: `Ground sample distance under ${VERY_HIGH_RESOLUTION_GSD} m`,
    percentage: 30,
    applies: (p) => p.satellite.gsd < VERY_HIGH_RESOLUTION_GSD,
  },
];

export const cents = (x: number): number => Math.round(x * 100) / 100;

export interface Price {
  readonly billableKm2: number;
  readonly baseAmount: number;
  readonly uplifts: UpliftOut[];
  readonly finalAmount: number;
  readonly tokensUsed: number;
}

export function priceItem(p: PricingInput): Price {
  const billableKm2 = Math.max(p.areaKm2, MIN_BILLABLE_KM2[p.type]);
  const baseAmount = cents(billableKm2 * RATE_PER_KM2[p.type] * p.occurrences);
  const uplifts = UPLIFT_RULES.filter((r) => r.applies(p)).map((r) => ({
    amount: cents((baseAmount * r.percentage) / 100),
    item_id: r.item_id,
    percentage: r.percentage,
    subtitle: r.subtitle,
    title: r.title,
  }));
  const finalAmount = cents(baseAmount + uplifts.reduce((s, u) => s + u.amount, 0));
  return { billableKm2, baseAmount, uplifts, finalAmount, tokensUsed: Math.ceil(finalAmount) };
}
