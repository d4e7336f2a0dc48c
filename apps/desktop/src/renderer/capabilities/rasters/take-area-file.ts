/**
 * A field file read for the area of a take offline (KML, GPX, Shapefile, GeoPackage, GeoJSON,
 * CSV: the app's file preview, `files.preview`): its picked areas, one or merged, are the site.
 */
import { defineFilePreviewStore } from '../../stores/file-preview-store';

export const useTakeAreaFile = defineFilePreviewStore('takeAreaFile');
