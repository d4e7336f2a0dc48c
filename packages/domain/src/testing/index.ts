/**
 * `@eo/domain/testing`: deterministic builders of valid resources and request bodies.
 *
 *   buildOrder()                        realistic: every field, plausible values
 *   buildOrder.minimal()                only the required fields
 *   buildOrder({ status: 'UNPAID' })    overrides win (shallow merge)
 *   buildOrder({}, { seed: 7 })         another seed, another object
 *   const rng = createRng(7);           one stream for several builders:
 *   buildAoi({}, { rng }); buildAoi({}, { rng });   -> two different AOIs
 *
 * No `Math.random`: the same seed gives the same data everywhere.
 */
export { createRng, DEFAULT_SEED, type BuildOptions, type Rng } from './rng';
export { defineBuilder, type Builder } from './builder';
export {
  LAND_SITES,
  SATELLITES,
  buildFootprint,
  type Footprint,
  type FootprintPolygon,
  type LandSite,
  type SatelliteProfile,
} from './world';
export {
  asciiBytes,
  buildAoi,
  buildArchiveFeature,
  buildArchiveFeatureCollection,
  buildArchiveProperties,
  buildAsset,
  buildCatalogProperties,
  buildCatalogRecord,
  buildDelivery,
  buildJob,
  buildJobTask,
  buildOrder,
  buildOrderItem,
  buildPolygon,
  buildSpectralIndex,
  buildStacItem,
  buildTask,
  buildValError,
  buildVisualization,
  presetExpression,
} from './resources';
export {
  buildArchiveOrderItemInput,
  buildCatalogSearchRequest,
  buildCreateAoiRequest,
  buildCreateDeliveriesRequest,
  buildCreateIndexRequest,
  buildCreateOrderRequest,
  buildCreateVisualizationRequest,
  buildDeliveryRequestInput,
  buildRecurringOrderItemInput,
  buildSatelliteSearchRequest,
  buildTaskingOrderItemInput,
} from './requests';
export { countSchemaRuns } from './schema-runs';
