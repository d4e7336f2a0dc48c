/**
 * Extension reads of the reference lists (`@eo/domain` `reference.ts`): the real service's
 * `GET /v0/projects`, `/v0/bandsets`, `/v0/satellites` and `/v0/workflows`, at its paths and in
 * its shapes, so forms offer known ids instead of guesses. Not in our spec; nothing spec'd
 * changes (see docs/choices-orders.md, "Reference lists").
 */
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { WORKFLOWS } from '../jobs/workflows';
import { projectBelongsTo } from '../orgs/repository';
import { msToUs, toIso } from '../time';
import { BANDSETS, COLLECTIONS, SATELLITES, STORES, satelliteById } from './catalog';

/** The provider our collections name: one demo archive, not a real data provider. */
export const DEMO_PROVIDER = 'eo-field-desk';

interface ProjectRow {
  id: string;
  name: string;
  org_id: string;
  created_at: number;
  members_count: number;
}

/** A bandset's display name: the satellite's and the bands it carries. */
function bandsetName(satelliteId: string, bands: readonly string[]): string {
  const sat = satelliteById(satelliteId)?.name ?? satelliteId;
  return `${sat} ${bands.join(', ')}`;
}

export function registerReferenceRoutes(router: Router, ctx: AppContext): void {
  const projectCount = ctx.sqlite.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM projects WHERE org_id = ?',
  );
  const projectPage = ctx.sqlite.prepare<[string, number, number], ProjectRow>(
    `SELECT p.id, p.name, p.org_id, p.created_at,
            (SELECT count(*) FROM users u WHERE u.org_id = p.org_id) AS members_count
       FROM projects p WHERE p.org_id = ? ORDER BY p.id LIMIT ? OFFSET ?`,
  );

  router.readExtension('listProjects', ({ principal, query }) => {
    const { page_num, page_size } = query;
    const rows = projectPage.all(principal.orgId, page_size, (page_num - 1) * page_size);
    return {
      count: projectCount.get(principal.orgId)!.n,
      projects: rows.map((r) => ({
        id: r.id,
        // The real service's `name` is a slug and `title` the display name; ours has one name.
        name: r.name,
        title: r.name,
        org_id: r.org_id,
        members_count: r.members_count,
        created_at: toIso(msToUs(r.created_at)),
        updated_at: toIso(msToUs(r.created_at)),
      })),
    };
  });

  router.readExtension('listBandsets', () => ({
    bandsets: BANDSETS.map((b) => {
      const bands = satelliteById(b.satelliteId)?.bands ?? [];
      return {
        id: b.id,
        name: bandsetName(b.satelliteId, b.bands),
        description: `${b.bands.length} band(s) of ${b.satelliteId}`,
        captures: 1,
        bands: b.bands.map((name) => ({
          name,
          wavelength: bands.find((x) => x.name === name)?.wavelength ?? null,
        })),
        satellite_id: b.satelliteId,
      };
    }),
  }));

  router.readExtension('listSatellites', () => ({
    satellites: SATELLITES.map((s) => ({
      id: s.id,
      name: s.name,
      bands: s.bands.map((b) => ({
        name: b.name,
        wavelength: b.wavelength,
        spatial_resolution: s.gsd,
        common_name: b.common_name,
      })),
      collections: COLLECTIONS.filter((c) => c.satelliteIds.includes(s.id)).map((c) => ({
        id: c.id,
        name: c.title,
        // The data provider an AOI names (`provider`): the demo's own archive.
        provider: DEMO_PROVIDER,
      })),
    })),
  }));

  router.readExtension('listWorkflows', ({ principal, query }) => {
    // Our workflows are shared by every project of every organisation: a project filter only
    // narrows to nothing when the project is not the caller's.
    const projectOk =
      query.project_id === undefined ||
      projectBelongsTo(ctx.sqlite, query.project_id, principal.orgId);
    const matching = WORKFLOWS.filter(
      (w) =>
        projectOk &&
        (query.id === undefined || w.id === query.id) &&
        (query.name === undefined || w.name.toLowerCase().includes(query.name.toLowerCase())),
    );
    return {
      workflows: matching.slice(query.offset, query.offset + query.limit).map((w) => ({
        id: w.id,
        ...(query.project_id === undefined ? {} : { project_id: query.project_id }),
        name: w.name,
        description: w.description,
      })),
      pagination: { limit: query.limit, offset: query.offset, total: matching.length },
    };
  });

  // Secrets are never listed (the provider's list has none either).
  router.readExtension('listStores', () => ({
    stores: STORES.map((s) => ({
      id: s.id,
      name: s.name,
      type: s.type,
      configs: { bucket: s.bucket, region: s.region, path_prefix: s.pathPrefix },
      labels: {},
    })),
  }));
}
