/** The offline basemap's data, prepared at build time (apps/desktop/vite/basemap-data.ts). */
// An ambient module cannot import by a relative path: the packed lines' type by `import()`.
/* eslint-disable @typescript-eslint/consistent-type-imports */
declare module 'virtual:eo-basemap/water-*' {
  /** Lakes and rivers, projected and packed (`map/packed-lines.ts`). */
  const water: {
    readonly lakes: import('./map/packed-lines').PackedLines;
    readonly rivers: import('./map/packed-lines').PackedLines;
  };
  export default water;
}
declare module 'virtual:eo-basemap/shapes-*' {
  /** Land rings and country borders, projected and packed (`map/packed-lines.ts`). */
  const shapes: {
    readonly land: import('./map/packed-lines').PackedLines;
    readonly borders: import('./map/packed-lines').PackedLines;
  };
  export default shapes;
}
/* eslint-enable @typescript-eslint/consistent-type-imports */
declare module 'virtual:eo-basemap/places-*' {
  const places: string;
  export default places;
}
declare module 'virtual:eo-basemap/land-*' {
  /** A world-atlas countries topology (`objects.land`, `objects.countries`). */
  const topology: unknown;
  export default topology;
}
