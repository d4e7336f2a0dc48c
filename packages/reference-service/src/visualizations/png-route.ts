/**
 * `POST /v0/aois/{aoi_id}/visualizations/{visualization_id}/png`: NOT in our spec; the
 * provider's real service has it (`GenerateIndexPng`, body `atlas.PngRequest`), and we offer
 * it with the same path and body. The index map of the scene acquired on `date`, as an RGBA
 * PNG, with where it lies and what its colours mean in headers (`VISUALIZATION_PNG_HEADERS`).
 */
import {
  VisualizationIdParams,
  VisualizationPngRequest,
  VISUALIZATION_PNG_HEADERS,
  type Geometry,
} from '@eo/domain';
import type { FastifyInstance } from 'fastify';
import { getAoi, getAoiAssets } from '../aois/repository';
import { sceneFeature, type ArchiveSceneRow } from '../archive/repository';
import type { AppContext } from '../context';
import { makeAuthenticator } from '../http/auth';
import { ApiError } from '../http/errors';
import { getIndex } from '../indices/repository';
import { satelliteById } from '../reference/catalog';
import { getVisualizationById } from './repository';

export const VISUALIZATION_PNG_PATH = '/v0/aois/:aoi_id/visualizations/:visualization_id/png';

export function registerVisualizationPngRoute(app: FastifyInstance, ctx: AppContext): void {
  const authenticate = makeAuthenticator(ctx.sqlite);
  const scene = ctx.sqlite.prepare<[string], ArchiveSceneRow>(
    'SELECT id, collection_id, satellite_id, feature_json FROM archive_scenes WHERE id = ?',
  );
  app.post(VISUALIZATION_PNG_PATH, async (request, reply) => {
    const principal = authenticate(request.headers.authorization);
    const p = VisualizationIdParams.safeParse(request.params);
    if (!p.success) throw ApiError.validation(p.error, 'params');
    const b = VisualizationPngRequest.safeParse(request.body);
    if (!b.success) throw ApiError.validation(b.error, 'body');
    const { aoi_id: aoiId, visualization_id: visId } = p.data;
    const body = b.data;

    const v = getVisualizationById(ctx.sqlite, visId);
    const aoi = getAoi(ctx.sqlite, principal.orgId, aoiId);
    if (!v || !aoi || v.org_id !== principal.orgId || v.aoi_id !== aoiId)
      throw ApiError.notFound('visualization', visId);
    const index = getIndex(ctx.sqlite, principal.orgId, body.index_id);
    if (!index)
      throw ApiError.invalid('index_id', `unknown index ${JSON.stringify(body.index_id)}`);
    if (index.satellite_id !== aoi.satellite_id)
      throw ApiError.invalid(
        'index_id',
        `index ${JSON.stringify(index.id)} is for ${index.satellite_id}; this AOI is on ${aoi.satellite_id}`,
      );
    const sources = [
      ...getAoiAssets(ctx.sqlite, aoi.id, JSON.parse(v.src_asset_ids_json) as string[]).values(),
    ];
    const source = sources.find((s) => s.date === body.date);
    if (!source) {
      const dates = [...new Set(sources.map((s) => s.date.replaceAll('-', '_')))].slice(0, 20);
      throw ApiError.invalid('date', `no source scene on that date; dates: ${dates.join(', ')}`);
    }
    const row = source.source_item_id ? scene.get(source.source_item_id) : undefined;
    const datetime = row ? String(sceneFeature(row).properties.datetime ?? '') : '';
    const datetimeMs = Date.parse(datetime) || Date.parse(`${source.date}T10:30:00Z`);
    const sat = satelliteById(aoi.satellite_id);
    // On the render pool (a worker thread), in this organisation's share: 503 when it is full.
    const map = await ctx.render.run(principal.orgId, 'indexMap', {
      geometry: JSON.parse(aoi.geometry_json) as Geometry,
      datetimeMs,
      expression: index.expression,
      expressionType: index.expression_type,
      colormap: index.colormap,
      rescale: JSON.parse(index.rescale_json) as number[],
      mode: body.visualization_mode,
      bandCommonNames: new Map((sat?.bands ?? []).map((x) => [x.name, x.common_name])),
    });
    const H = VISUALIZATION_PNG_HEADERS;
    return reply
      .type('image/png')
      .header('cache-control', 'private, no-store')
      .header(H.bounds, map.bounds.join(','))
      .header(H.rescale, map.rescale.map((x) => +x.toFixed(6)).join(','))
      .header(H.colormap, map.colormap)
      .send(Buffer.from(map.png.buffer, map.png.byteOffset, map.png.byteLength));
  });
}
