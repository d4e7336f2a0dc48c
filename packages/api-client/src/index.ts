/**
 * @eo/api-client: a typed, resilient transport for every endpoint of the EO imagery API.
 * See README.md for examples.
 */
export { createEoClient, type EoClient } from './client';
export type { Capabilities } from './capabilities';
export type { ExtensionReads, JobRef } from './extensions';
export type {
  AoiDownloadInput,
  CatalogDownloadInput,
  DownloadCalls,
  DownloadFileRef,
  DownloadState,
} from './downloads';
export type { IndexPngCall, IndexPngInput, IndexPngResult } from './index-png';
export type { ReferenceReads } from './reference-lists';
export {
  EoAbortError,
  EoApiError,
  EoClientError,
  EoNetworkError,
  EoResponseError,
  EoTimeoutError,
  EoValidationError,
  isEoClientError,
  isRetryableStatus,
  type EoErrorKind,
} from './errors';
export type {
  CallOptions,
  EoClientOptions,
  FetchLike,
  RequestEvent,
  RequestWarningEvent,
  ResponseEvent,
  RetryOptions,
  SchemaDriftEvent,
  SleepLike,
} from './options';
export type { ResponseTiming } from './transport';
export {
  allItems,
  satelliteItems,
  type Page,
  type PageOptions,
  type Pagers,
  type PassEnd,
} from './pages';
export {
  READ_AHEAD_BYTES,
  READ_AHEAD_MAX,
  ReadAheadWindow,
  type ReadAheadSetting,
} from './read-ahead';
export { receivedTextOf } from './item-texts';
export { encodeQuery, type RequestInput } from './request';
export { backoffDelay, parseRetryAfter } from './retry';
export { isLoopbackHost, keyTransportProblem, originOf } from './service-url';
export type {
  BodyInput,
  DataInput,
  EndpointMethods,
  MethodArgs,
  QueryInput,
  AnyEndpointId,
  ResponseOf,
} from './types';
