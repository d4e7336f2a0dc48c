/**
 * One call of an extension endpoint (a read, or a read-only search): `null` on a 404 (the service
 * does not offer it, or does not know the record), the body checked with the endpoint's tolerant
 * response schema otherwise: drift reported through `onSchemaDrift` and the raw body returned
 * when it is still a JSON object (or the value the schema accepts), an `EoResponseError` when it
 * is not usable at all.
 */
import { fillPath, formatIssuePath, type EndpointDef } from '@eo/domain';
import { describeValue } from './decode';
import { EoApiError, EoResponseError, redactValue } from './errors';
import type { CallOptions, ResolvedOptions } from './options';
import { encodeQuery } from './request';
import type { Transport } from './transport';
import type { AnyEndpointId } from './types';

export type ExtensionRead = (
  id: AnyEndpointId,
  def: EndpointDef,
  params: Record<string, string>,
  query: Record<string, string> | undefined,
  body: unknown,
  call: CallOptions | undefined,
) => Promise<unknown>;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function makeExtensionRead(
  transport: Transport,
  onDrift: ResolvedOptions['onSchemaDrift'],
): ExtensionRead {
  return async (id, def, params, query, body, call) => {
    const path = fillPath(def.path, params) + encodeQuery(query);
    let res;
    try {
      res = await transport.send(
        {
          endpoint: id,
          method: def.method,
          kind: def.kind,
          path,
          body: body === undefined ? undefined : JSON.stringify(body),
        },
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
    if (!isRecord(res.json)) {
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
  };
}
