/**
 * Reads our reference service offers beyond the spec (`extensionEndpoints` in @eo/domain): a job,
 * a delivery, a visualization re-read after its creation. Another service may not offer them,
 * so a 404 resolves to `null` ("not offered, or not known there") instead of throwing: callers
 * keep what they have. Every other failure throws the client's usual typed errors, and bodies
 * are checked with the tolerant domain schemas (drift reported, usable data still returned).
 */
import {
  extensionEndpoints,
  fillPath,
  formatIssuePath,
  type Delivery,
  type ExtensionEndpointId,
  type Job,
  type Visualization,
} from '@eo/domain';
import { EoApiError, EoResponseError, redactValue } from './errors';
import { describeValue } from './decode';
import type { CallOptions, ResolvedOptions } from './options';
import type { Transport } from './transport';

export interface ExtensionReads {
  getJob(jobId: string, options?: CallOptions): Promise<Job | null>;
  getDelivery(deliveryId: string, options?: CallOptions): Promise<Delivery | null>;
  getVisualization(
    aoiId: string,
    visualizationId: string,
    options?: CallOptions,
  ): Promise<Visualization | null>;
}

export function makeExtensionReads(
  transport: Transport,
  onDrift: ResolvedOptions['onSchemaDrift'],
): ExtensionReads {
  async function read<Id extends ExtensionEndpointId>(
    id: Id,
    params: Record<string, string>,
    call: CallOptions | undefined,
  ): Promise<unknown> {
    const def = extensionEndpoints[id];
    const path = fillPath(def.path, params);
    let res;
    try {
      res = await transport.send(
        { endpoint: id, method: def.method, kind: def.kind, path, body: undefined },
        call,
      );
    } catch (e) {
      if (e instanceof EoApiError && e.status === 404) return null;
      throw e;
    }
    const parsed = def.response.safeParse(res.json);
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues.map((i) => ({
      path: formatIssuePath(i.path),
      message: i.message,
    }));
    if (typeof res.json !== 'object' || res.json === null || Array.isArray(res.json)) {
      throw new EoResponseError({
        endpoint: id,
        method: def.method,
        path,
        status: res.status,
        message: `${def.method} ${path}: unusable response: expected a JSON object, got ${describeValue(res.json)}`,
        issues,
        body: redactValue(res.json, transport.secrets),
      });
    }
    try {
      onDrift?.({ endpoint: id, issues });
    } catch {
      // A reporting hook must never break a call.
    }
    return res.json;
  }

  return {
    getJob: (jobId, options) => read('getJob', { job_id: jobId }, options) as Promise<Job | null>,
    getDelivery: (deliveryId, options) =>
      read('getDelivery', { delivery_id: deliveryId }, options) as Promise<Delivery | null>,
    getVisualization: (aoiId, visualizationId, options) =>
      read(
        'getVisualization',
        { aoi_id: aoiId, visualization_id: visualizationId },
        options,
      ) as Promise<Visualization | null>,
  };
}
