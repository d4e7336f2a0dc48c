/**
 * Field files (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON, CSV) read by the backend
 * with `@eo/formats` into a preview: the renderer never parses them, it sends the bytes. No
 * Node, no DOM: the renderer imports this file (the limit and the accepted extensions).
 */
import { AreaGeometryInput } from '@eo/domain';
import { z } from 'zod';
import {
  MAX_IMPORT_BASE64_CHARS,
  MAX_IMPORT_FILE_BYTES,
  MAX_TYPED_AREA_CHARS,
} from '../../shared/file-limits';
import { ExportedFile, FileExportRequest } from './file-export';

export * from '../../shared/file-limits';
export * from './file-export';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const FilePreviewRequest = z
  .object({
    /** The file's name as picked (its extension says the format); no folders. */
    name: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .refine((n) => !/[\\/]/.test(n), 'a file name, without folders'),
    base64: z
      .string()
      .max(MAX_IMPORT_BASE64_CHARS, {
        message: `the file is larger than ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB`,
      })
      .refine(
        // An oversize text is refused by max() already: not scanned again.
        (s) => s.length > MAX_IMPORT_BASE64_CHARS || (s.length % 4 === 0 && BASE64.test(s)),
        'not base64 text',
      ),
    /** The attribute the features' names come from (else name/Name/title/id…). */
    nameField: z.string().trim().min(1).max(100).optional(),
  })
  .strict();

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const PreviewFeatureView = z.object({
  /** 1-based position in the file (what messages name). */
  index: z.number().int().min(1),
  name: z.string(),
  properties: z.record(z.string(), Scalar),
  /** The geometry's type as read (null: none or unreadable). */
  geometryType: z.string().nullable(),
  /** The checked and repaired area an AOI takes, or null when refused (`problem`). */
  area: AreaGeometryInput.nullable(),
  repairs: z.array(z.string()),
  problem: z.string().nullable(),
});
export type PreviewFeatureView = z.infer<typeof PreviewFeatureView>;

export const FilePreview = z.object({
  file: z.string(),
  format: z.string(),
  /** The CRS the file was in when not WGS 84 (reprojected). */
  sourceCrs: z.string().nullable(),
  /** What was assumed reading it ("x.shp: no .prj: read as WGS 84 lon/lat"), shown with it. */
  warnings: z.array(z.string()),
  features: z.array(PreviewFeatureView),
});
export type FilePreview = z.infer<typeof FilePreview>;

/** An area typed or pasted instead of drawn: a box (west, south, east, north), WKT or GeoJSON. */
export const TypedAreaRequest = z
  .object({
    text: z
      .string()
      .max(MAX_TYPED_AREA_CHARS, `at most ${MAX_TYPED_AREA_CHARS} characters are read`),
  })
  .strict();

export const TypedAreaView = z.object({
  /** What the text was read as (null: none of them). */
  kind: z.enum(['box', 'wkt', 'geojson']).nullable(),
  /** The checked and repaired area, or null when refused (`problem`). */
  area: AreaGeometryInput.nullable(),
  repairs: z.array(z.string()),
  problem: z.string().nullable(),
});
export type TypedAreaView = z.infer<typeof TypedAreaView>;

export const filesMethods = {
  /**
   * A file's features as areas, nothing queued. A file that cannot be read at all is
   * `invalid_argument` whose message names the file (and the feature at fault) and why.
   */
  'files.preview': { input: FilePreviewRequest, output: FilePreview },
  /**
   * A typed or pasted area read by `@eo/formats` and checked like a file's (drawing without a
   * mouse); a text it cannot read is answered with `problem`, not an error.
   */
  'files.typedArea': { input: TypedAreaRequest, output: TypedAreaView },
  /**
   * Records of the mirror as a GeoJSON, KML, KMZ (styled by status), zipped Shapefile,
   * GeoPackage or CSV file, offline. Electron's main saves it through a save dialog.
   */
  'files.export': { input: FileExportRequest, output: ExportedFile },
} as const;
