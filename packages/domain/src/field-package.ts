/**
 * Field packages: one GeoPackage file a team carries from a laptop that synced to laptops that
 * did not (a USB stick, a shared folder), the way QField and Mergin package a project for the
 * field. QGIS and QField open it as is (feature layers of catalog footprints, AOIs, order items
 * and archive scenes, the quicklooks related to their footprints); it also carries the mirror's
 * own records losslessly (the JSON as the service sent it) so another laptop's mirror can take
 * them in. Defined here once: @eo/sync writes, reads and merges packages; the `eo` CLI and the
 * desktop name their parts and limits.
 */
import { z } from 'zod';
import { GeometryInput } from './geometry';
import { ImageryChoice } from './imagery';
import { CatalogSearchRequest } from './search/request';
import { ServiceOrigin } from './service-origin';

/** `eo_package.format`: what tells our packages from any other GeoPackage. */
export const FIELD_PACKAGE_FORMAT = 'eo-field-package';
/** The layout written now; a reader refuses a later one (it cannot know what changed). */
export const FIELD_PACKAGE_VERSION = 1;
/** The GeoPackage extension name our own tables are registered under (`gpkg_extensions`). */
export const FIELD_PACKAGE_EXTENSION = 'eo_field_package';

/** The feature layers a GIS shows, by what they hold. */
export const FIELD_PACKAGE_LAYERS = {
  catalog: 'catalog_footprints',
  aois: 'aois',
  orderItems: 'order_items',
  archive: 'archive_scenes',
} as const;

/** The media table of quicklooks and index maps (GeoPackage Related Tables, `media`). */
export const FIELD_PACKAGE_PICTURES = 'quicklooks';

/**
 * What a package carries of the mirror, each as the service sent it: the synced resources, the
 * records this client created (the service cannot list them), the reference lists, and the
 * archive scenes of saved archive searches with those searches' lists.
 */
export const FIELD_PACKAGE_RESOURCES = [
  'orders',
  'orderItems',
  'aois',
  'assets',
  'indices',
  'catalogs',
  'visualizations',
  'deliveries',
  'jobs',
  'reference',
  'archiveScenes',
  'archiveSearches',
] as const;
export const FieldPackageResource = z.enum(FIELD_PACKAGE_RESOURCES);
export type FieldPackageResource = z.infer<typeof FieldPackageResource>;

/**
 * Bounds a reader holds a package to before it reads anything else (a package comes from
 * another laptop: a truncated copy, a damaged stick, or someone's hostile file).
 */
export const FIELD_PACKAGE_LIMITS = {
  /** The whole file (a package with overviews of a large site is a few GB at most). */
  maxFileBytes: 16 * 1024 ** 3,
  /** Records of all resources together. */
  maxRecords: 2_000_000,
  /** One record's JSON (an order of 100 items with detailed areas is a few MB). */
  maxRecordBytes: 16 * 1024 ** 2,
  /** One picture (an overview is ~0.3 MB; an index map a few MB). */
  maxPictureBytes: 64 * 1024 ** 2,
  maxPictures: 1_000_000,
  /** An id, a variant, a name. */
  maxIdChars: 512,
  /** The manifest (`eo_package`). */
  maxManifestBytes: 1024 * 1024,
} as const;

const name = z.string().trim().min(1).max(200);
const id = z.string().trim().min(1).max(FIELD_PACKAGE_LIMITS.maxIdChars);

/** What goes into a package: records in an area, an AOI's, or a saved search's. */
export const FieldPackageSelection = z.discriminatedUnion('kind', [
  /** Everything whose geometry meets the area: catalog records, AOIs, order items, archive scenes. */
  z.strictObject({ kind: z.literal('area'), area: GeometryInput, name: name.optional() }),
  /** An AOI with its assets and visualizations, and what meets its area (as `area`). */
  z.strictObject({ kind: z.literal('aoi'), aoiId: id }),
  /** The catalog records a saved catalog search matches (paging ignored). */
  z.strictObject({ kind: z.literal('catalogSearch'), name, search: CatalogSearchRequest }),
  /** The scenes a saved archive search keeps in the mirror. */
  z.strictObject({ kind: z.literal('archiveSearch'), searchId: id }),
]);
export type FieldPackageSelection = z.infer<typeof FieldPackageSelection>;
export type FieldPackageSelectionInput = z.input<typeof FieldPackageSelection>;

/** How a package is made: what it selects, which pictures go with it, and its size at most. */
export const FieldPackageOptions = z.strictObject({
  selection: FieldPackageSelection,
  /** Quicklooks of the selected records: none, thumbnails, or thumbnails and overviews. */
  imagery: ImageryChoice.default('thumbnails'),
  /** The offline rasters downloaded for the selected records, too. */
  pixels: z.boolean().default(false),
  /** The package's size at most, in bytes: pictures are left out (largest kinds first) to fit. */
  budgetBytes: z
    .number()
    .int()
    .min(1024 * 1024, 'a budget of at least 1 MB')
    .max(FIELD_PACKAGE_LIMITS.maxFileBytes)
    .optional(),
});
export type FieldPackageOptions = z.infer<typeof FieldPackageOptions>;
export type FieldPackageOptionsInput = z.input<typeof FieldPackageOptions>;

const count = z.number().int().min(0);

/** The package's own description (`eo_package`), read first and checked before any record. */
export const FieldPackageManifest = z.object({
  format: z.literal(FIELD_PACKAGE_FORMAT),
  version: z.number().int().min(1),
  id: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  origin: ServiceOrigin,
  /** What was selected, in words (`Area "North fields"`, `AOI Maize 2024`). */
  label: z.string().max(400),
  selection: z.enum(['area', 'aoi', 'catalogSearch', 'archiveSearch']),
  imagery: ImageryChoice,
  pixels: z.boolean(),
  /** Records per resource. */
  records: z.partialRecord(FieldPackageResource, count),
  pictures: z.object({ count, bytes: count }),
  /** Pictures the budget left out (they did not fit). */
  leftOut: z.object({ pictures: count, bytes: count }),
});
export type FieldPackageManifest = z.infer<typeof FieldPackageManifest>;
