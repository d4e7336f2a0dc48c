/**
 * Reference data with stable, documented ids (packages/reference-service/README.md): satellites and their
 * bands, archive collections, bandsets, and workflows. It is code, not seed rows, so every
 * instance of the service (and every test) agrees on it.
 */
export interface Band {
  readonly name: string;
  /** Centre wavelength, nanometres. */
  readonly wavelength: number;
  readonly common_name: string;
}

export interface Satellite {
  readonly id: string;
  readonly name: string;
  readonly constellation: string;
  readonly platform: string;
  readonly instruments: readonly string[];
  readonly bands: readonly Band[];
  /** Ground sample distance of the multispectral bands, metres. */
  readonly gsd: number;
  readonly swathKm: number;
  readonly altitudeKm: number;
  readonly imageType: string;
  readonly collectionId: string;
}

const AURORA_BANDS: Band[] = [
  { name: 'B01', wavelength: 443, common_name: 'coastal' },
  { name: 'B02', wavelength: 490, common_name: 'blue' },
  { name: 'B03', wavelength: 560, common_name: 'green' },
  { name: 'B04', wavelength: 665, common_name: 'red' },
  { name: 'B05', wavelength: 705, common_name: 'rededge' },
  { name: 'B08', wavelength: 842, common_name: 'nir' },
  { name: 'B11', wavelength: 1610, common_name: 'swir16' },
  { name: 'B12', wavelength: 2190, common_name: 'swir22' },
];
const KESTREL_BANDS: Band[] = [
  { name: 'PAN', wavelength: 625, common_name: 'pan' },
  { name: 'BLUE', wavelength: 485, common_name: 'blue' },
  { name: 'GREEN', wavelength: 545, common_name: 'green' },
  { name: 'RED', wavelength: 660, common_name: 'red' },
  { name: 'NIR', wavelength: 830, common_name: 'nir' },
];

export const SATELLITES: readonly Satellite[] = [
  {
    id: 'sat-aurora-1',
    name: 'Aurora-1',
    constellation: 'aurora',
    platform: 'aurora-1',
    instruments: ['msi'],
    bands: AURORA_BANDS,
    gsd: 3,
    swathKm: 40,
    altitudeKm: 525,
    imageType: 'MULTISPECTRAL',
    collectionId: 'col-aurora-l2a',
  },
  {
    id: 'sat-aurora-2',
    name: 'Aurora-2',
    constellation: 'aurora',
    platform: 'aurora-2',
    instruments: ['msi'],
    bands: AURORA_BANDS,
    gsd: 3,
    swathKm: 40,
    altitudeKm: 525,
    imageType: 'MULTISPECTRAL',
    collectionId: 'col-aurora-l2a',
  },
  {
    id: 'sat-kestrel-1',
    name: 'Kestrel-1',
    constellation: 'kestrel',
    platform: 'kestrel-1',
    instruments: ['pan', 'vnir'],
    bands: KESTREL_BANDS,
    gsd: 0.5,
    swathKm: 14,
    altitudeKm: 480,
    imageType: 'VNIR',
    collectionId: 'col-kestrel-ortho',
  },
];

export interface Collection {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly satelliteIds: readonly string[];
  readonly productLevel: string;
  readonly license: string;
}

export const COLLECTIONS: readonly Collection[] = [
  {
    id: 'col-aurora-l2a',
    title: 'Aurora L2A surface reflectance',
    description: 'Multispectral 3 m scenes, atmospherically corrected',
    satelliteIds: ['sat-aurora-1', 'sat-aurora-2'],
    productLevel: 'L2A',
    license: 'CC-BY-4.0',
  },
  {
    id: 'col-kestrel-ortho',
    title: 'Kestrel orthorectified VNIR',
    description: 'Very high resolution 0.5 m pan-sharpened scenes',
    satelliteIds: ['sat-kestrel-1'],
    productLevel: 'L1C',
    license: 'proprietary',
  },
];

export interface BandsetDef {
  readonly id: string;
  readonly satelliteId: string;
  readonly bands: readonly string[];
}

export const BANDSETS: readonly BandsetDef[] = [
  { id: 'bs-aurora-rgbn', satelliteId: 'sat-aurora-1', bands: ['B02', 'B03', 'B04', 'B08'] },
  { id: 'bs-aurora-all', satelliteId: 'sat-aurora-1', bands: AURORA_BANDS.map((b) => b.name) },
  { id: 'bs-kestrel-pan', satelliteId: 'sat-kestrel-1', bands: ['PAN'] },
  { id: 'bs-kestrel-ms', satelliteId: 'sat-kestrel-1', bands: ['BLUE', 'GREEN', 'RED', 'NIR'] },
];

export const satelliteById = (id: string) => SATELLITES.find((s) => s.id === id);
export const collectionById = (id: string) => COLLECTIONS.find((c) => c.id === id);
export const bandsetById = (id: string) => BANDSETS.find((b) => b.id === id);

/**
 * Delivery stores (`GET /v0/stores`): the same three for every organisation, one per store type
 * the provider knows. Our service writes a delivery's manifest under its delivery root whichever
 * store `cloud_info.config` names (docs/choices-field-operations.md, "Stores").
 */
export interface StoreDef {
  readonly id: string;
  readonly name: string;
  readonly type: 'S3' | 'GCS' | 'AZBLOB';
  readonly bucket: string;
  readonly region: string;
  readonly pathPrefix: string;
}

export const STORES: readonly StoreDef[] = [
  {
    id: 'store-s3-field',
    name: 'field-deliveries-s3',
    type: 'S3',
    bucket: 'eo-field-deliveries',
    region: 'eu-west-1',
    pathPrefix: 'deliveries/',
  },
  {
    id: 'store-gcs-archive',
    name: 'archive-gcs',
    type: 'GCS',
    bucket: 'eo-field-archive',
    region: 'europe-west4',
    pathPrefix: '',
  },
  {
    id: 'store-azblob-partner',
    name: 'partner-azure',
    type: 'AZBLOB',
    bucket: 'eopartner',
    region: 'westeurope',
    pathPrefix: 'incoming/',
  },
];
