/** @eo/sync: the local mirror, offline search and the outbox. */
export { openMirrorDatabase, type MirrorDatabase, type OpenMirrorOptions } from './db/open';
export type { UpgradeProgress } from './db/compact-upgrade';
export { DISK_HEADROOM_MB, diskFullMessage, isDiskFull } from './db/disk-full';
export {
  describeHolder,
  lockMirror,
  MirrorInUseError,
  type MirrorHolder,
  type MirrorHolderMode,
  type MirrorLock,
} from './db/mirror-lock';
export {
  makePrivateDir,
  preparePrivateDatabase,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
} from './db/private-files';
export {
  createSyncEngine,
  RECENT_COMPLETE_MS,
  RESOURCES,
  type SyncEngine,
  type SyncEngineOptions,
  type SyncOptions,
  type SyncProgress,
  type SyncReport,
} from './pull/engine';
export { SyncBusyError, describeSyncError, type SyncErrorInfo } from './pull/errors';
export {
  createDriftInbox,
  DRIFT_SAMPLE_SIZE,
  type DriftInbox,
  type DriftSample,
  type DriftSource,
} from './pull/drift';
export type { ResourceStatus } from './pull/state';
export type { RecordIssue, ResourceName } from './mirror/writers';
export {
  makeOfflineCatalogSearch,
  OfflineSearchError,
  type OfflineListResult,
  type OfflineSearchIssue,
  type OfflineSearchResult,
} from './search/catalog';
export type { CatalogListRow } from '@eo/catalog-store';
export {
  filterAois,
  filterAssets,
  filterIndices,
  filterOrderItems,
  filterOrders,
  aoisQuery,
  assetsQuery,
  indicesQuery,
  orderItemsQuery,
  ordersQuery,
  type AoiFilter,
  type AssetFilter,
  type FilterQuery,
  type IndexFilter,
  type NumberRange,
  type OrderFilter,
  type OrderItemFilter,
  type TimeRange,
} from './search/local-filters';
export { makeCreatedRecords, type CreatedRecords } from './mirror/created';
export {
  refreshCreated,
  type RefreshCreatedOptions,
  type RefreshCreatedReport,
} from './mirror/refresh-created';
export * from './outbox/index';
/** Mirrored records as export features (`eo export`, the desktop's exports). */
export {
  aoiFeature,
  catalogFeature,
  deliveryFeature,
  orderItemFeature,
} from './cli/export/records';
export { checkConnectivity, type ConnectivityCheck, type ConnectivityStatus } from './connectivity';
export {
  watchConnectivity,
  type ConnectivityWatcher,
  type FlushTarget,
  type WatcherClock,
} from './connectivity-watcher';
export { makeOutboxMirror } from './mirror/outbox-mirror';
export { PACK_BATCH, type PackRecordsOptions } from './mirror/packing';
export type { PackingProgress } from '@eo/catalog-store';
export {
  openMirror,
  type Mirror,
  type MirrorFlushOptions,
  type MirrorOptions,
  type MirrorSyncOptions,
  type MirrorSyncReport,
} from './mirror/mirror';
export {
  areaAround,
  areaFromFile,
  areaOfAoi,
  AreaError,
  HEADER_BYTES,
  OfflineError,
  type OfflineProgress,
  type OfflineRaster,
  type OfflineRasters,
  type OfflineState,
  type Resolution,
  type SceneKind,
  type SiteArea,
  type SiteRequest,
  type TakeOfflineOptions,
} from './offline/index';
export {
  fetchJobResults,
  JOB_RESULTS_MAX_BYTES,
  JobResultsError,
  type JobResults,
  type JobResultsOptions,
  type JobResultsProblem,
} from './results/job-results';
export {
  DEFAULT_IMAGERY_BUDGET_BYTES,
  IMAGERY_CHOICES,
  imageryDir,
  type ImageryChoice,
  type ImageryCounts,
} from './mirror/imagery';
export {
  DEFAULT_IMAGERY_CONCURRENCY,
  type ImageryProgress,
  type ImageryReport,
  type ImagerySyncOptions,
} from './pull/imagery';
export type {
  ArchivePassState,
  ArchiveProgress,
  ArchiveReport,
  ArchiveSearchReport,
} from './pull/archive';
export type { ArchiveCounts, ArchiveScene, ArchiveSearchStatus } from './mirror/archive';
export { footprintIds, type CatalogFootprints } from './search/footprints';
export { type CloudHistogram } from './search/cloud-histogram';
export type { LookupBandset, LookupChoice, Lookups, LookupSatellite } from './mirror/lookups';
export {
  REFERENCE_KINDS,
  syncReference,
  type ReferenceKind,
  type ReferenceReport,
} from './pull/reference';
/** Field packages (README.md, "Field packages"): `mirror.packages`, and the CLI's helpers. */
export {
  CopyCheckError,
  copyResumable,
  makeFieldPackages,
  NO_PIXELS,
  PackageError,
  PackageTooLargeError,
  partFile,
  SelectionError,
  type CopyProgress,
  type CopyResult,
  type FieldPackages,
  type MergeCounts,
  type PackageImport,
  type PackagePlan,
  type PackageSummary,
  type PixelSink,
  type PixelSource,
  type RasterFile,
  type WrittenPackage,
} from './field-package/index';
export { OriginMismatchError, serviceName } from './mirror/origin';
export { HandoverFileError, type HandoverPlan, type HandoverWritten } from './mirror/handover-file';
