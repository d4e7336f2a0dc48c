/**
 * What a field package holds, worked out from the mirror: the ids of each resource a selection
 * takes (an area, an AOI, a saved catalog or archive search).
 *
 * - An area: the catalog records, AOIs, order items and archive scenes whose geometry meets it;
 *   an order item takes its whole order with it (an order is a unit), an AOI its assets and
 *   the visualizations this client made of it, an archive scene the lists of the saved
 *   searches that keep it.
 * - An AOI: itself with its assets and visualizations, and what meets its area, as above.
 * - A saved catalog search: the records it matches (paging ignored). A saved archive search:
 *   its scenes and its list.
 * - Always: the indices (visualizations name them), the deliveries and jobs this client
 *   created, and the service's reference lists: small, and what the forms offer offline.
 */
import {
  COMPACT_LAYOUT,
  compileCatalogSql,
  makeCatalogSearch,
  withQueryGeometry,
} from '@eo/catalog-store';
import {
  boundsIntersect,
  CatalogSearchRequest,
  geometryBbox,
  geometryIntersects,
  type FieldPackageResource,
  type FieldPackageSelection,
  type Geometry,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { aoiFeature, orderItemGeometry } from '../cli/export/records';
import { MIRROR_ORG } from '../mirror/rows';

/** A selection that names something the mirror does not hold. */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}

export type SelectedIds = Record<FieldPackageResource, string[]>;

export interface Selected {
  /** What was selected, in words: `Area "North fields"`, `AOI "Maize 2024"`. */
  readonly label: string;
  readonly ids: SelectedIds;
}

const parseJson = (s: string): unknown => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return null;
  }
};

const unique = (ids: Iterable<string>) => [...new Set(ids)];

export function makeSelection(sqlite: Database.Database) {
  makeCatalogSearch(sqlite, COMPACT_LAYOUT); // installs the spatial and time functions its SQL calls
  const q = {
    aois: sqlite.prepare<[], { aoi_id: string; name: string | null; json: string }>(
      'SELECT aoi_id, name, json FROM mirror_aois ORDER BY created_at_us, aoi_id',
    ),
    aoi: sqlite.prepare<[string], { name: string | null; json: string }>(
      'SELECT name, json FROM mirror_aois WHERE aoi_id = ?',
    ),
    items: sqlite.prepare<[], { id: string; order_id: string; json: string }>(
      'SELECT id, order_id, json FROM mirror_order_items ORDER BY created_at_us, id',
    ),
    orders: sqlite.prepare<[], { id: string; json: string }>(
      'SELECT id, json FROM mirror_orders ORDER BY created_at_us, id',
    ),
    itemsOfOrder: sqlite
      .prepare<[string], string>('SELECT id FROM mirror_order_items WHERE order_id = ? ORDER BY id')
      .pluck(),
    orderExists: sqlite
      .prepare<[string], number>('SELECT 1 FROM mirror_orders WHERE id = ?')
      .pluck(),
    assetsOf: sqlite
      .prepare<[string], string>('SELECT id FROM mirror_assets WHERE aoi_id = ? ORDER BY id')
      .pluck(),
    visualizationsOf: sqlite
      .prepare<[string], string>(
        'SELECT id FROM mirror_visualizations WHERE aoi_id = ? ORDER BY created_at_us, id',
      )
      .pluck(),
    scenesNear: sqlite.prepare<[number, number, number, number], { id: string; json: string }>(
      `SELECT id, json FROM mirror_archive_scenes
       WHERE max_lon >= ? AND min_lon <= ? AND max_lat >= ? AND min_lat <= ?
       ORDER BY datetime_us DESC, id`,
    ),
    searchesOf: sqlite
      .prepare<[string], string>(
        'SELECT search_id FROM mirror_archive_search_scenes WHERE scene_id = ?',
      )
      .pluck(),
    searchByIdOrName: sqlite.prepare<[string, string], { search_id: string; name: string }>(
      'SELECT search_id, name FROM mirror_archive_searches WHERE search_id = ? OR name = ? LIMIT 3',
    ),
    scenesOfSearch: sqlite
      .prepare<[string], string>(
        'SELECT scene_id FROM mirror_archive_search_scenes WHERE search_id = ? ORDER BY rank',
      )
      .pluck(),
    all: (sql: string) => sqlite.prepare<[], string>(sql).pluck(),
  };
  const always = {
    indices: q.all('SELECT id FROM mirror_indices ORDER BY id'),
    deliveries: q.all('SELECT id FROM mirror_deliveries ORDER BY created_at_us, id'),
    jobs: q.all('SELECT id FROM mirror_jobs ORDER BY created_at_us, id'),
    reference: q.all(`SELECT json_array(kind, id) FROM mirror_reference ORDER BY kind, id`),
  };

  /** Catalog record ids a parsed search matches, newest first. */
  function catalogIds(req: CatalogSearchRequest): string[] {
    const c = compileCatalogSql(MIRROR_ORG, req, COMPACT_LAYOUT);
    if (c.empty) return [];
    const sql = `SELECT c.id FROM ${c.from} WHERE ${c.where} ORDER BY c.datetime_us DESC, c.id`;
    const run = (params: Record<string, unknown>) =>
      sqlite.prepare(sql).pluck().all(params) as string[];
    return c.geometry === null
      ? run(c.params)
      : withQueryGeometry(sqlite, c.geometry, (token) => run({ ...c.params, token }));
  }

  function empty(): SelectedIds {
    return {
      orders: [],
      orderItems: [],
      aois: [],
      assets: [],
      indices: always.indices.all(),
      catalogs: [],
      visualizations: [],
      deliveries: always.deliveries.all(),
      jobs: always.jobs.all(),
      reference: always.reference.all(),
      archiveScenes: [],
      archiveSearches: [],
    };
  }

  /** The AOIs' assets and visualizations, added to `ids`. */
  function withAoiParts(ids: SelectedIds): void {
    ids.assets = unique(ids.aois.flatMap((a) => q.assetsOf.all(a)));
    ids.visualizations = unique(ids.aois.flatMap((a) => q.visualizationsOf.all(a)));
  }

  /** Everything whose geometry meets `area`, into `ids`. */
  function inArea(area: Geometry, ids: SelectedIds): void {
    const box = geometryBbox(area);
    if (!box) return;
    const meets = (g: Geometry | null) => {
      if (!g) return false;
      const b = geometryBbox(g);
      return b !== null && boundsIntersect(box, b) && geometryIntersects(area, g);
    };
    ids.catalogs = catalogIds(CatalogSearchRequest.parse({ intersects: area }));
    const aois = q.aois
      .all()
      .filter((a) => meets(aoiFeature(parseJson(a.json)).geometry))
      .map((a) => a.aoi_id);
    ids.aois = unique([...ids.aois, ...aois]);
    const orders = q.items
      .all()
      .filter((i) =>
        meets(orderItemGeometry((parseJson(i.json) as { geometry?: unknown })?.geometry)),
      )
      .map((i) => i.order_id);
    ids.orders = unique(orders).filter((o) => q.orderExists.get(o) !== undefined);
    ids.orderItems = unique(unique(orders).flatMap((o) => q.itemsOfOrder.all(o)));
    ids.archiveScenes = q.scenesNear
      .all(box[0], box[2], box[1], box[3])
      .filter((s) => {
        const feature = parseJson(s.json) as { geometry?: unknown; bbox?: unknown } | null;
        const g = aoiFeature({ geometry: feature?.geometry }).geometry;
        // A scene without a readable geometry met the area with its bbox.
        return g === null || meets(g);
      })
      .map((s) => s.id);
    ids.archiveSearches = unique(ids.archiveScenes.flatMap((s) => q.searchesOf.all(s)));
    withAoiParts(ids);
  }

  return function select(selection: FieldPackageSelection): Selected {
    const ids = empty();
    switch (selection.kind) {
      case 'area': {
        inArea(selection.area, ids);
        const label = selection.name ? `Area "${selection.name}"` : 'The drawn area';
        return { label, ids };
      }
      case 'aoi': {
        const aoi = q.aoi.get(selection.aoiId);
        if (!aoi)
          throw new SelectionError(`AOI ${selection.aoiId} is not in this mirror: sync it first`);
        ids.aois = [selection.aoiId];
        const area = aoiFeature(parseJson(aoi.json)).geometry;
        if (area) inArea(area, ids);
        else withAoiParts(ids);
        return { label: `AOI "${aoi.name ?? selection.aoiId}"`, ids };
      }
      case 'catalogSearch':
        ids.catalogs = catalogIds(selection.search);
        return { label: `Search "${selection.name}"`, ids };
      case 'archiveSearch': {
        const found = q.searchByIdOrName.all(selection.searchId, selection.searchId);
        const exact = found.find((s) => s.search_id === selection.searchId);
        if (!exact && found.length > 1)
          throw new SelectionError(
            `several saved archive searches are named "${selection.searchId}": give its id`,
          );
        const search = exact ?? found[0];
        if (!search)
          throw new SelectionError(
            `no saved archive search "${selection.searchId}" in the mirror (sync it first)`,
          );
        ids.archiveScenes = q.scenesOfSearch.all(search.search_id);
        ids.archiveSearches = [search.search_id];
        return { label: `Archive search "${search.name}"`, ids };
      }
    }
  };
}
