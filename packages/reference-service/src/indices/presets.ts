/** Built-in preset indices (org_id NULL), seeded on first start with stable ids. */
import type Database from 'better-sqlite3';
import { insertIndex } from './repository';

export const PRESET_INDICES = [
  {
    id: 'idx-ndvi-aurora',
    name: 'NDVI',
    description: 'Normalised difference vegetation index',
    expression: '(B08 - B04) / (B08 + B04)',
    satelliteId: 'sat-aurora-1',
    bands: ['B08', 'B04'],
    colormap: 'RdYlGn',
    expressionType: 'index',
  },
  {
    id: 'idx-ndwi-aurora',
    name: 'NDWI',
    description: 'Normalised difference water index (McFeeters)',
    expression: '(B03 - B08) / (B03 + B08)',
    satelliteId: 'sat-aurora-1',
    bands: ['B03', 'B08'],
    colormap: 'Blues',
    expressionType: 'index',
  },
  {
    id: 'idx-nbr-aurora',
    name: 'NBR',
    description: 'Normalised burn ratio',
    expression: '(B08 - B12) / (B08 + B12)',
    satelliteId: 'sat-aurora-1',
    bands: ['B08', 'B12'],
    colormap: 'RdBu',
    expressionType: 'index',
  },
  {
    id: 'idx-truecolor-aurora',
    name: 'True colour',
    description: 'Red, green, blue composite',
    expression: 'B04, B03, B02',
    satelliteId: 'sat-aurora-1',
    bands: ['B04', 'B03', 'B02'],
    colormap: 'none',
    expressionType: 'composite',
  },
  {
    id: 'idx-ndvi-kestrel',
    name: 'NDVI',
    description: 'Normalised difference vegetation index',
    expression: '(NIR - RED) / (NIR + RED)',
    satelliteId: 'sat-kestrel-1',
    bands: ['NIR', 'RED'],
    colormap: 'RdYlGn',
    expressionType: 'index',
  },
  {
    id: 'idx-pan-kestrel',
    name: 'Panchromatic',
    description: 'Panchromatic band as grayscale',
    expression: 'PAN',
    satelliteId: 'sat-kestrel-1',
    bands: ['PAN'],
    colormap: 'gray',
    expressionType: 'grayscale',
  },
] as const;

export function seedPresetIndices(sqlite: Database.Database, nowUs: number): void {
  const exists = sqlite.prepare('SELECT 1 FROM indices WHERE id = ?');
  for (const p of PRESET_INDICES) {
    if (exists.get(p.id)) continue;
    insertIndex(sqlite, {
      id: p.id,
      orgId: null,
      userId: null,
      name: p.name,
      description: p.description,
      expression: p.expression,
      expressionType: p.expressionType,
      type: 'preset',
      rescale: p.expressionType === 'index' ? [-1, 1] : [0, 255],
      colormap: p.colormap,
      satelliteId: p.satelliteId,
      bands: [...p.bands],
      nowUs,
    });
  }
}
