/**
 * Every table of the service, re-exported from the resource folders that own them.
 * drizzle-kit reads this file to generate migrations (see CONTRIBUTING.md).
 */
export * from '../orgs/schema';
export * from '../http/idempotency-schema';
export * from '../worker/schema';
export * from '../indices/schema';
export * from '../archive/schema';
export * from '../catalog/schema';
export * from '../aois/schema';
export * from '../visualizations/schema';
export * from '../jobs/schema';
export * from '../orders/schema';
export * from '../deliveries/schema';
export * from '../downloads/schema';
