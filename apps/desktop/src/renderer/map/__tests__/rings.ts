/** A square footprint `size` degrees wide with its south-west corner at lon/lat: a flat closed ring. */
export const square = (lon: number, lat: number, size = 1): number[] => [
  lon,
  lat,
  lon + size,
  lat,
  lon + size,
  lat + size,
  lon,
  lat + size,
  lon,
  lat,
];
