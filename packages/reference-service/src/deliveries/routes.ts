/**
 * 4.11 POST /v0/catalogs/deliveries. Each delivery request names catalog records or order
 * items (exactly one of the two; the domain schema enforces it) and fans out into Delivery
 * records: one per catalog record (with its task_id), or one per task of each order item
 * (one without a task when the item has none yet). Unknown ids, or ids of another
 * organisation, are a 404 naming every such id with its path; an unsafe cloud path or a
 * repeated id is a 400.
 */
import type { ErrorDetail } from '@eo/domain';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { newId } from '../ids';
import { DELIVERY_STEP, registerDeliverySteps } from './fulfilment';
import { targetPath, unsafePathReason } from './paths';
import { deliveryToWire, makeDeliveryQueries, type DeliveryRow } from './repository';

export function registerDeliveryRoutes(router: Router, ctx: AppContext): void {
  const q = makeDeliveryQueries(ctx.sqlite);
  registerDeliverySteps(ctx, q);

  router.create('createDeliveries', ({ principal, body }) => {
    const now = ctx.nowUs();
    const invalid: ErrorDetail[] = [];
    const missing: ErrorDetail[] = [];
    const rows: DeliveryRow[] = [];

    body.deliveries.forEach((request, n) => {
      const at = `deliveries.${n}`;
      const reason = unsafePathReason(request.cloud_info.path);
      if (reason) invalid.push({ path: `${at}.cloud_info.path`, message: reason });
      const base = (parts: Pick<DeliveryRow, 'catalog_id' | 'task_id' | 'order_item_id'>) => {
        const id = newId('dlv');
        rows.push({
          id,
          org_id: principal.orgId,
          ...parts,
          cloud_config: request.cloud_info.config,
          cloud_path: request.cloud_info.path,
          status: 'PENDING',
          reason: null,
          target_path: targetPath(request.cloud_info.path, id),
          created_by: principal.userId,
          updated_by: principal.userId,
          created_at: now,
          updated_at: now,
        });
      };
      const field = request.catalog_ids?.length ? 'catalog_ids' : 'order_item_ids';
      const ids = request[field] ?? [];
      const seen = new Set<string>();
      ids.forEach((id, k) => {
        const path = `${at}.${field}.${k}`;
        if (seen.has(id)) {
          invalid.push({ path, message: `${id} is listed twice` });
          return;
        }
        seen.add(id);
        if (field === 'catalog_ids') {
          const record = q.catalogRecord(id, principal.orgId);
          if (!record)
            missing.push({ path, message: `catalog record ${JSON.stringify(id)} was not found` });
          else base({ catalog_id: record.id, task_id: record.task_id, order_item_id: null });
          return;
        }
        const item = q.orderItem(id, principal.orgId);
        if (!item) {
          missing.push({ path, message: `order item ${JSON.stringify(id)} was not found` });
          return;
        }
        const tasks = q.tasksOfItem(item.id);
        if (tasks.length === 0) base({ catalog_id: null, task_id: null, order_item_id: item.id });
        for (const t of tasks)
          base({ catalog_id: t.catalog_id, task_id: t.id, order_item_id: item.id });
      });
    });

    if (invalid.length > 0) {
      throw new ApiError(
        400,
        'validation_failed',
        `Invalid body: ${invalid[0]!.path}: ${invalid[0]!.message}`,
        invalid,
      );
    }
    if (missing.length > 0) {
      throw new ApiError(404, 'not_found', `${missing[0]!.path}: ${missing[0]!.message}`, missing);
    }
    for (const row of rows) {
      q.insert(row);
      ctx.worker.schedule(DELIVERY_STEP, row.id);
    }
    return { deliveries: rows.map(deliveryToWire) };
  });

  router.readExtension('getDelivery', ({ principal, params }) => {
    const row = q.get(params.delivery_id);
    // Another organisation's delivery is unknown here, never revealed.
    if (!row || row.org_id !== principal.orgId)
      throw ApiError.notFound('delivery', params.delivery_id);
    return deliveryToWire(row);
  });

  // The provider's list has no paging: the whole (filtered) list, oldest first.
  router.readExtension('listDeliveries', ({ principal, query }) => ({
    deliveries: q.list(principal.orgId, query).map(deliveryToWire),
  }));
}
