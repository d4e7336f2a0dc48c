/**
 * The field file formats records are exported in (`@eo/formats` writes them; the desktop's
 * contract and the `eo` CLI name them): defined once here so the renderer can offer them.
 */
import { z } from 'zod';

export const EXPORT_FORMATS = ['geojson', 'csv', 'kml', 'kmz', 'shp', 'gpkg'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;
