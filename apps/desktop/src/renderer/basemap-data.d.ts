/** The offline basemap's data, prepared at build time (apps/desktop/vite/basemap-data.ts). */
declare module 'virtual:eo-basemap/water-*' {
  const water: { readonly lakes: number[][]; readonly rivers: number[][] };
  export default water;
}
declare module 'virtual:eo-basemap/places-*' {
  const places: string;
  export default places;
}
declare module 'virtual:eo-basemap/land-*' {
  /** A world-atlas countries topology (`objects.land`, `objects.countries`). */
  const topology: unknown;
  export default topology;
}
