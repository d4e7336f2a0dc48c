/**
 * Field packages (@eo/sync's, one GeoPackage QGIS and QField open that another laptop's mirror
 * takes in): planned and written from this mirror ("Share for the field…"), opened into it
 * ("Open a field package…"). The package crosses the bridge as base64 like a field file, so the
 * app shares and opens packages up to the field files' size; larger ones (pictures of a big
 * site, offline rasters) are the `eo package` CLI's, which writes and reads files directly.
 * No Node, no DOM: the renderer imports this file.
 */
import { FieldPackageOptions, FieldPackageResource } from '@eo/domain';
import { z } from 'zod';
import { MAX_IMPORT_FILE_BYTES } from '../../shared/file-limits';
import { fileBase64, fileName } from '../../shared/contract/fields';
import { ExportedFile } from '../files/file-export';

/** The largest package the app writes or opens (the CLI has no such limit). */
export const MAX_APP_PACKAGE_BYTES = MAX_IMPORT_FILE_BYTES;

const count = z.number().int().min(0);

/** What the app shares: a package's options, without offline rasters (the CLI carries them). */
export const PackageShareRequest = FieldPackageOptions.omit({ pixels: true });

export const PackagePlanView = z.object({
  label: z.string(),
  records: z.partialRecord(FieldPackageResource, count),
  recordBytes: count,
  pictures: z.object({ thumbnail: count, overview: count, indexMap: count, bytes: count }),
  leftOut: z.object({ pictures: count, bytes: count }),
  estimatedBytes: count,
  /** The budget applied: the one asked for, or the app's limit. */
  budgetBytes: count,
});
export type PackagePlanView = z.infer<typeof PackagePlanView>;

export const PackageOpenRequest = z
  .object({
    name: fileName,
    base64: fileBase64(
      `the package is larger than ${MAX_APP_PACKAGE_BYTES / 1024 / 1024} MB: open it with eo package import`,
    ),
  })
  .strict();

const merged = z.object({ added: count, updated: count, kept: count });

export const PackageOpened = z.object({
  packageId: z.string(),
  label: z.string(),
  records: z.partialRecord(FieldPackageResource, merged),
  pictures: merged,
  rasters: merged.extend({ unkept: count }),
});
export type PackageOpened = z.infer<typeof PackageOpened>;

export const packagesMethods = {
  /** What a package of these options would hold and about how large it would be, offline. */
  'packages.plan': { input: PackageShareRequest, output: PackagePlanView },
  /**
   * The package written (pictures left out to fit the budget); Electron's main saves it through
   * a save dialog, browser mode downloads it. `invalid_argument` when its records alone are
   * over the app's limit.
   */
  'packages.share': { input: PackageShareRequest, output: ExportedFile },
  /**
   * A package merged into the mirror, all or nothing: newer records by `updated_at` win,
   * nothing doubled. `invalid_argument` with the reason for a damaged or foreign package
   * (another service or organisation: nothing changes); `busy` while a sync runs.
   */
  'packages.open': { input: PackageOpenRequest, output: PackageOpened },
} as const;
