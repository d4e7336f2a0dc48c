/** Previews `files.preview` gives for the renderer's tests (the memory bridge answers them). */
import type { FilePreview } from '../../../../shared/contract';

export const square = (x: number, y: number, d: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [x, y],
      [x + d, y],
      [x + d, y + d],
      [x, y + d],
      [x, y],
    ] as Array<[number, number]>,
  ],
});

/** A KMZ of two fields and a well (a point: no area). */
export const KMZ: FilePreview = {
  file: 'felder.kmz',
  format: 'kmz',
  sourceCrs: null,
  warnings: [],
  features: [
    {
      index: 1,
      name: 'Wiese am Bach',
      properties: { name: 'Wiese am Bach', flur: 'F-12' },
      geometryType: 'Polygon',
      area: square(14.1, 46.2, 0.01),
      repairs: ['closed ring 1', 'removed 2 repeated positions'],
      problem: null,
    },
    {
      index: 2,
      name: 'Brunnen',
      properties: {},
      geometryType: 'Point',
      area: null,
      repairs: [],
      problem: 'a Point has no area',
    },
    {
      index: 3,
      name: 'Acker Nord',
      properties: { flur: 'F-14' },
      geometryType: 'Polygon',
      area: square(14.3, 46.2, 0.02),
      repairs: [],
      problem: null,
    },
  ],
};
