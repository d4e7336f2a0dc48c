import { describe, expect, it } from 'vitest';
import {
  BandsetList,
  extensionEndpoints,
  ListProjectsQuery,
  ListWorkflowsQuery,
  ProjectList,
  SatelliteList,
  WorkflowList,
} from '../index';

describe('reference lists (the real service read shapes)', () => {
  it('reads the real service example values, keeping fields it does not name', () => {
    const bandsets = BandsetList.parse({
      bandsets: [
        {
          id: '47435e2b-d8c4-41ff-9de9-2be3bfc92276',
          name: 'Agriculture',
          description: 'Agriculture bandset',
          captures: 1,
          bands: [{ name: 'B001', wavelength: 473 }],
          extra: true,
        },
      ],
    });
    expect(bandsets.bandsets[0]).toMatchObject({ name: 'Agriculture', extra: true });
    const sats = SatelliteList.parse({
      satellites: [
        {
          id: 'sat-aurora-1',
          name: 'Aurora-1',
          bands: [{ name: 'B05', wavelength: 705, spatial_resolution: 3 }],
          collections: [{ id: 'col-aurora-l2a', name: 'Aurora', provider: 'demo' }],
          rgb_composite: { red: 'B04', green: 'B03', blue: 'B02' },
        },
      ],
    });
    expect(sats.satellites[0]!.bands!.map((b) => b.name)).toEqual(['B05']);
    expect(ProjectList.parse({ projects: [{ id: 'p', title: null }] }).projects[0]!.id).toBe('p');
    expect(
      WorkflowList.parse({
        workflows: [{ id: 'wf', name: 'NDVI' }],
        pagination: { limit: 50, offset: 0, total: 1 },
      }).workflows,
    ).toHaveLength(1);
  });

  it('requires the list key and each entry id', () => {
    expect(SatelliteList.safeParse({ items: [] }).success).toBe(false);
    expect(ProjectList.safeParse({ projects: [{ name: 'no id' }] }).success).toBe(false);
  });

  it('pages projects by page_num / page_size and workflows by offset / limit', () => {
    expect(ListProjectsQuery.parse({})).toEqual({ page_num: 1, page_size: 50 });
    expect(ListProjectsQuery.safeParse({ page_num: '0' }).success).toBe(false);
    expect(ListWorkflowsQuery.parse({ project_id: 'p', limit: '5' })).toEqual({
      project_id: 'p',
      offset: 0,
      limit: 5,
    });
  });

  it('are extension reads at the real service paths', () => {
    expect(
      [
        extensionEndpoints.listProjects,
        extensionEndpoints.listBandsets,
        extensionEndpoints.listSatellites,
        extensionEndpoints.listWorkflows,
      ].map((d) => `${d.method} ${d.path}`),
    ).toEqual(['GET /v0/projects', 'GET /v0/bandsets', 'GET /v0/satellites', 'GET /v0/workflows']);
  });
});
