/** TIFF 6.0, BigTIFF, GeoTIFF 1.1 and GDAL tag numbers and field types the codec reads or writes. */
export const Tag = {
  NewSubfileType: 254,
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  PlanarConfiguration: 284,
  Predictor: 317,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  ExtraSamples: 338,
  SampleFormat: 339,
  ModelPixelScale: 33550,
  ModelTiepoint: 33922,
  ModelTransformation: 34264,
  GeoKeyDirectory: 34735,
  GeoDoubleParams: 34736,
  GeoAsciiParams: 34737,
  GdalMetadata: 42112,
  GdalNodata: 42113,
} as const;

/** Field types: their codes and sizes in bytes. */
export const FieldType = {
  BYTE: 1,
  ASCII: 2,
  SHORT: 3,
  LONG: 4,
  RATIONAL: 5,
  SBYTE: 6,
  UNDEFINED: 7,
  SSHORT: 8,
  SLONG: 9,
  SRATIONAL: 10,
  FLOAT: 11,
  DOUBLE: 12,
  IFD: 13,
  LONG8: 16,
  SLONG8: 17,
  IFD8: 18,
} as const;

export const FIELD_SIZE: Readonly<Record<number, number>> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
  16: 8,
  17: 8,
  18: 8,
};

/** Compression codes. */
export const COMPRESSION_NONE = 1;
export const COMPRESSION_DEFLATE = 8;
export const COMPRESSION_DEFLATE_OLD = 32946;

/** NewSubfileType bits. */
export const SUBFILE_REDUCED = 1;
export const SUBFILE_MASK = 4;

/** GeoKey ids. */
export const GeoKey = {
  GTModelType: 1024,
  GTRasterType: 1025,
  GTCitation: 1026,
  GeographicType: 2048,
  GeogCitation: 2049,
  GeogAngularUnits: 2054,
  ProjectedCSType: 3072,
  PCSCitation: 3073,
  ProjLinearUnits: 3076,
} as const;
export const MODEL_PROJECTED = 1;
export const MODEL_GEOGRAPHIC = 2;
export const RASTER_PIXEL_IS_AREA = 1;
export const RASTER_PIXEL_IS_POINT = 2;
export const USER_DEFINED = 32767;
