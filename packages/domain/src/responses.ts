/** Response bodies of the 14 endpoints (part 4). Tolerant: unknown fields are kept. */
import { z } from 'zod';
import { CatalogSearchPagination, OffsetPagination, SkipPagination } from './pagination';
import { Aoi, Asset, SpectralIndex, Visualization } from './resources/aoi';
import { ArchiveFeatureCollection, CatalogRecord } from './resources/catalog';
import { Delivery } from './resources/delivery';
import { Job } from './resources/job';
import { Order, OrderItem } from './resources/order';

export const OrderItemList = z.looseObject({
  order_items: z.array(OrderItem),
  pagination: OffsetPagination,
});
export type OrderItemList = z.infer<typeof OrderItemList>;

export const AssetList = z.looseObject({ assets: z.array(Asset), pagination: OffsetPagination });
export type AssetList = z.infer<typeof AssetList>;

export const CatalogSearchResponse = z.looseObject({
  catalogs: z.array(CatalogRecord),
  pagination: CatalogSearchPagination,
});
export type CatalogSearchResponse = z.infer<typeof CatalogSearchResponse>;

export const AoiList = z.looseObject({ aois: z.array(Aoi), pagination: OffsetPagination });
export type AoiList = z.infer<typeof AoiList>;

/**
 * 4.5 satellite image search: `items` is an object whose structure is not shown. Our service
 * answers a STAC FeatureCollection (as in 2.11); a client must accept any object.
 */
export const SatelliteSearchResponse = z.looseObject({
  items: z.record(z.string(), z.unknown()),
  pagination: SkipPagination,
});
export type SatelliteSearchResponse = z.infer<typeof SatelliteSearchResponse>;

export const IndexList = z.looseObject({
  indices: z.array(SpectralIndex),
  pagination: OffsetPagination,
});
export type IndexList = z.infer<typeof IndexList>;

export const OrderList = z.looseObject({ orders: z.array(Order), pagination: OffsetPagination });
export type OrderList = z.infer<typeof OrderList>;

export const DeliveryList = z.looseObject({ deliveries: z.array(Delivery) });
export type DeliveryList = z.infer<typeof DeliveryList>;

export { Aoi, ArchiveFeatureCollection, Job, Order, SpectralIndex, Visualization };
