/**
 * Re-reads of what a client created: a job, a delivery, a visualization, an order. The spec has
 * no read for any of them, so each service profile (`dialect.ts` in @eo/domain) says where they
 * are (an order is at `GET /v0/orders/{id}` in both):
 *
 * - `spec`: our reference service's extension reads (`extensionEndpoints`): one record by id.
 * - `provider-v0`: the provider's reads (`providerReadEndpoints`): a job under its workflow
 *   (`GET /v0/workflows/{workflow_id}/jobs/{job_id}`), a delivery out of the deliveries list
 *   filtered by `delivery_id`, a visualization out of its AOI's list filtered by
 *   `visualization_id` (the record whose id matches; the filter is not trusted alone).
 *
 * A service may not offer them, so a 404 (or a list without the record) resolves to `null`
 * ("not offered, or not known there") instead of throwing: callers keep what they have. Every
 * other failure throws the client's usual typed errors, and bodies are checked with the tolerant
 * domain schemas (drift reported, usable data still returned).
 */
import {
  extensionEndpoints,
  fillPath,
  providerReadEndpoints,
  type Delivery,
  type EndpointDef,
  type Job,
  type Order,
  type ServiceDialect,
  type Visualization,
} from '@eo/domain';
import { EoResponseError } from './errors';
import { makeExtensionRead } from './extension-read';
import { makeFieldOperations, type FieldOperations } from './field-operations';
import type { CallOptions, ResolvedOptions } from './options';
import { encodeQuery } from './request';
import type { Transport } from './transport';
import { makeReferenceReads, type ReferenceReads } from './reference-lists';
import type { AnyEndpointId } from './types';

/** A job to re-read: its id, or the stored record (the provider's read needs its workflow). */
export type JobRef = string | { readonly id: string; readonly workflow_id?: string | null };

/** Re-reads of created records, and the reference lists forms offer (`reference-lists.ts`). */
export interface ExtensionReads extends ReferenceReads, FieldOperations {
  getJob(job: JobRef, options?: CallOptions): Promise<Job | null>;
  getDelivery(deliveryId: string, options?: CallOptions): Promise<Delivery | null>;
  getVisualization(
    aoiId: string,
    visualizationId: string,
    options?: CallOptions,
  ): Promise<Visualization | null>;
  /** An order with its items (its payment status is listed nowhere else by id). */
  getOrder(orderId: string, options?: CallOptions): Promise<Order | null>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function makeExtensionReads(
  transport: Transport,
  onDrift: ResolvedOptions['onSchemaDrift'],
  dialect: ServiceDialect = 'spec',
): ExtensionReads {
  const readOnce = makeExtensionRead(transport, onDrift);
  const read = (
    id: AnyEndpointId,
    def: EndpointDef,
    params: Record<string, string>,
    query: Record<string, string> | undefined,
    call: CallOptions | undefined,
  ) => readOnce(id, def, params, query, undefined, call) as Promise<Record<string, unknown> | null>;

  /** The record of `list[key]` whose `idField` is `wanted`; a missing list is envelope breakage. */
  function pick(
    body: Record<string, unknown> | null,
    key: string,
    idField: string,
    wanted: string,
    where: { endpoint: AnyEndpointId; path: string },
  ): Record<string, unknown> | null {
    if (body === null) return null;
    const list = body[key];
    if (!Array.isArray(list)) {
      throw new EoResponseError({
        endpoint: where.endpoint,
        method: 'GET',
        path: where.path,
        status: 200,
        message: `GET ${where.path}: unusable response: "${key}" ${list === undefined ? 'is missing' : `is ${list === null ? 'null' : typeof list}, not a list`}`,
        issues: [{ path: key, message: 'expected a list' }],
      });
    }
    const found = list.find((r) => isRecord(r) && String(r[idField]) === wanted);
    return (found as Record<string, unknown> | undefined) ?? null;
  }

  // The reference lists and the order are at the same paths, in the same shapes, in both
  // profiles.
  const reference = {
    ...makeReferenceReads((id, def, query, call) => read(id, def, {}, query, call)),
    ...makeFieldOperations(readOnce),
  };
  const getOrder = async (orderId: string, options?: CallOptions) =>
    (await read(
      'getOrder',
      extensionEndpoints.getOrder,
      { order_id: orderId },
      undefined,
      options,
    )) as Order | null;

  if (dialect === 'provider-v0') {
    const p = providerReadEndpoints;
    return {
      ...reference,
      getOrder,
      async getJob(job, options) {
        const ref = typeof job === 'string' ? { id: job } : job;
        const workflowId = 'workflow_id' in ref ? ref.workflow_id : undefined;
        // The provider reads a job only under its workflow: without it there is nothing to ask.
        if (!workflowId) return null;
        const params = { workflow_id: workflowId, job_id: ref.id };
        return (await read(
          'getWorkflowJob',
          p.getWorkflowJob,
          params,
          undefined,
          options,
        )) as Job | null;
      },
      async getDelivery(deliveryId, options) {
        const query = { delivery_id: deliveryId };
        const body = await read('listDeliveries', p.listDeliveries, {}, query, options);
        const path = p.listDeliveries.path + encodeQuery(query);
        return pick(body, 'deliveries', 'delivery_id', deliveryId, {
          endpoint: 'listDeliveries',
          path,
        }) as Delivery | null;
      },
      async getVisualization(aoiId, visualizationId, options) {
        const query = { visualization_id: visualizationId };
        const params = { aoi_id: aoiId };
        const body = await read('listVisualizations', p.listVisualizations, params, query, options);
        const path = fillPath(p.listVisualizations.path, params) + encodeQuery(query);
        return pick(body, 'visualization', 'id', visualizationId, {
          endpoint: 'listVisualizations',
          path,
        }) as Visualization | null;
      },
    };
  }

  const e = extensionEndpoints;
  return {
    ...reference,
    getOrder,
    getJob: async (job, options) => {
      const id = typeof job === 'string' ? job : job.id;
      return (await read('getJob', e.getJob, { job_id: id }, undefined, options)) as Job | null;
    },
    getDelivery: async (deliveryId, options) =>
      (await read(
        'getDelivery',
        e.getDelivery,
        { delivery_id: deliveryId },
        undefined,
        options,
      )) as Delivery | null,
    getVisualization: async (aoiId, visualizationId, options) =>
      (await read(
        'getVisualization',
        e.getVisualization,
        { aoi_id: aoiId, visualization_id: visualizationId },
        undefined,
        options,
      )) as Visualization | null,
  };
}
