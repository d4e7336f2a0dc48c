/** 4.6 GET /v0/indices and 4.7 POST /v0/indices. */
import { checkExpression } from '@eo/domain';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { offsetPage } from '../http/pagination';
import { newId } from '../ids';
import { satelliteById } from '../reference/catalog';
import { getIndex, indexToWire, insertIndex, listIndices } from './repository';

export function registerIndexRoutes(router: Router, ctx: AppContext): void {
  router.read('listIndices', ({ principal, query }) => {
    const { rows, total } = listIndices(ctx.sqlite, principal.orgId, query);
    return {
      indices: rows.map(indexToWire),
      pagination: offsetPage(query.limit, query.offset, total),
    };
  });

  router.create('createIndex', ({ principal, body }) => {
    const satellite = satelliteById(body.satellite_id);
    if (!satellite)
      throw ApiError.invalid(
        'satellite_id',
        `unknown satellite ${JSON.stringify(body.satellite_id)}`,
      );
    const check = checkExpression(
      body.expression,
      body.expression_type,
      satellite.bands.map((b) => b.name),
    );
    if (check.problems.length > 0) {
      const details = check.problems.map((p) => ({ path: 'expression', message: p.message }));
      throw new ApiError(
        400,
        'validation_failed',
        `expression: ${check.problems[0]!.message}`,
        details,
      );
    }
    const id = newId('idx');
    insertIndex(ctx.sqlite, {
      id,
      orgId: principal.orgId,
      userId: principal.userId,
      name: body.name,
      description: body.description,
      expression: body.expression,
      expressionType: body.expression_type,
      type: body.type,
      rescale: body.rescale,
      colormap: body.colormap,
      satelliteId: body.satellite_id,
      bands: check.bands,
      nowUs: ctx.nowUs(),
    });
    return indexToWire(getIndex(ctx.sqlite, principal.orgId, id)!);
  });
}
