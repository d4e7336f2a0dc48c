/**
 * `POST /v0/aois/{aoi_id}/visualizations/{visualization_id}/png`: the index map of a
 * visualization for one date, as PNG bytes. Not in our spec: the provider's real service has it
 * (`GenerateIndexPng`) and our reference service offers it with the same path and body. The
 * body is checked with the domain's `VisualizationPngRequest`; the answer is not JSON, so it
 * goes through the transport's byte path (key, slot, timeout; no retries).
 */
import { indexPngHeaderLegend, VisualizationPngRequest, type VisualizationMode } from '@eo/domain';
import type { CallOptions } from './options';
import type { Transport } from './transport';

export interface IndexPngInput {
  readonly index_id: string;
  /** `YYYY-MM-DD` or `YYYY_MM_DD`; sent as `YYYY_MM_DD` (the real service's layout). */
  readonly date: string;
  readonly visualization_mode: VisualizationMode;
}

/**
 * The picture with the legend its headers carry (fields null when absent), or the status of a
 * refusal: 404/405/501 from a service without the route, 400 for a date it has no scene for...
 */
export type IndexPngResult =
  | {
      readonly ok: true;
      readonly png: Uint8Array;
      readonly legend: ReturnType<typeof indexPngHeaderLegend>;
    }
  | { readonly ok: false; readonly status: number };

export type IndexPngCall = (
  aoiId: string,
  visualizationId: string,
  input: IndexPngInput,
  options?: CallOptions,
) => Promise<IndexPngResult>;

export function makeIndexPng(transport: Transport): IndexPngCall {
  return async (aoiId, visualizationId, input, options) => {
    const body = VisualizationPngRequest.parse(input);
    const path = `/v0/aois/${encodeURIComponent(aoiId)}/visualizations/${encodeURIComponent(visualizationId)}/png`;
    const res = await transport.sendBytes(
      {
        endpoint: undefined,
        method: 'POST',
        path,
        body: JSON.stringify({ ...body, date: body.date.replaceAll('-', '_') }),
      },
      options,
    );
    if (res.status < 200 || res.status > 299) return { ok: false, status: res.status };
    return { ok: true, png: res.bytes, legend: indexPngHeaderLegend((h) => res.headers.get(h)) };
  };
}
