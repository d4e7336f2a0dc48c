/**
 * Test inputs for the queued creates, valid for the reference service's demo organisation
 * (projects, satellites, presets and workflows of `DEMO`), and a real archive scene to order
 * and to build an AOI on.
 */
import type { EoClient } from '@eo/api-client';
import { DEMO } from '@eo/fixtures';
import type { OutboxCreate } from '../../shared/contract';

type InputOf<K extends OutboxCreate['kind']> = Extract<OutboxCreate, { kind: K }>['input'];

export const CROPS = DEMO.projects[0].id;
export const FLOODS = DEMO.projects[1].id;

type Box = readonly [w: number, s: number, e: number, n: number];

function ring([w, s, e, n]: Box): Array<[number, number]> {
  return [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ];
}

function featureCollection(box: Box) {
  return {
    type: 'FeatureCollection' as const,
    features: [
      {
        type: 'Feature' as const,
        properties: {},
        geometry: { type: 'Polygon' as const, coordinates: [ring(box)] },
      },
    ],
  };
}

/** A sat-aurora-1 archive scene, and a small box inside its footprint. */
export async function auroraScene(client: EoClient): Promise<{ id: string; box: Box }> {
  const { features } = await client.listArchiveItems('col-aurora-l2a', { limit: 100 });
  const scene = features.find((f) => f.properties?.['rd:sat_id'] === 'sat-aurora-1' && f.bbox);
  if (!scene?.bbox) throw new Error('the seed has no sat-aurora-1 scene');
  const [w, s, e, n] = scene.bbox.map(Number) as [number, number, number, number];
  const [cx, cy, dx, dy] = [(w + e) / 2, (s + n) / 2, (e - w) / 40, (n - s) / 40];
  return { id: scene.id, box: [cx - dx, cy - dy, cx + dx, cy + dy] };
}

/** Tasking items in the future over fields near Bologna (about 110 km² each). */
export function taskingOrder(items: ReadonlyArray<{ name: string; project?: string }>) {
  return {
    order_items: items.map((i, k) => ({
      project_id: i.project ?? CROPS,
      name: i.name,
      geometry: featureCollection([11.3 + k * 0.2, 44.45, 11.425 + k * 0.2, 44.55]),
      start_date: '2030-06-01T00:00:00Z',
      end_date: '2030-06-30T00:00:00Z',
    })),
  } satisfies InputOf<'order'>;
}

/** One archive item on `sceneId` (an id the schema accepts; the service decides if it exists). */
export function archiveOrder(name: string, sceneId: string, box: Box) {
  return {
    order_items: [
      { project_id: CROPS, name, geometry: featureCollection(box), item_ids: [sceneId] },
    ],
  } satisfies InputOf<'order'>;
}

export function aoiInput(name: string, sceneId: string, box: Box, project: string = CROPS) {
  return {
    name,
    description: 'Vines, north slope',
    satellite_id: 'sat-aurora-1',
    provider: 'aurora-archive',
    project_id: project,
    geometry: { type: 'Polygon' as const, coordinates: [ring(box)] },
    item_ids: [sceneId],
  } satisfies InputOf<'aoi'>;
}

export function indexInput(name: string) {
  return {
    name,
    description: 'Red-edge NDVI',
    rescale: [-1, 1],
    expression: '(B08 - B05) / (B08 + B05)',
    colormap: 'RdYlGn',
    satellite_id: 'sat-aurora-1',
    expression_type: 'index' as const,
    type: 'custom' as const,
  } satisfies InputOf<'index'>;
}
