/**
 * @eo/domain: the interface of the EO imagery API as data. Import everything from here;
 * test data builders live in `@eo/domain/testing`.
 */
export * from './enums';
export * from './known-values';
export * from './limits';
export * from './geometry';
export * from './pagination';
export * from './errors';
export * from './expression';
export * from './expression-kernel';
export * from './imagery';
export * from './png';
export * from './export-formats';

export * from './time/instant';
export * from './time/codecs';
export * from './time/interval';
export * from './time/schemas';
export * from './time/lenient';

export * from './resources/common';
export * from './resources/order';
export * from './resources/aoi';
export * from './resources/catalog';
export * from './resources/delivery';
export * from './resources/job';

export * from './requests/params';
export * from './requests/cloud-path';
export * from './requests/lists';
export * from './requests/orders';
export * from './requests/creates';
export * from './requests/satellite-search';

export * from './geo/orient';
export * from './geo/primitives';
export * from './geo/intersects';
export * from './geo/bbox';
export * from './geo/measure';
export * from './geo/validity';
export * from './geo/utm';

export * from './search/paths';
export * from './search/request';
export * from './search/values';
export * from './search/evaluate';
export * from './search/cloud-bins';

export * from './responses';
export * from './endpoints';
export * from './extensions';
export * from './downloads';
export * from './reference';
export * from './outbox';
export * from './outbox-handover';
export * from './service-origin';
export * from './field-package';
export * from './record-link';
export * from './archive-scenes';
export * from './saved-archive-search';
export * from './order-item-progress';
export * from './nearest-ids';
export * from './sync';
export * from './idempotency';
export * from './dialect';
export * from './field-operations';
