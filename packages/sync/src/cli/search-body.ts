/**
 * The body of `POST /v0/catalogs/search` from the command line: a JSON body (--json or --file),
 * then the convenience flags on top of it (a flag replaces the body's field). The result is not
 * validated here: the offline search checks it with the domain schema, as the service would.
 */
import type { OptionValues } from './args';
import { listFlag, numberFlag, UsageError } from './args';
import type { CliIo } from './io';
import { jsonInput } from './json-input';

type Body = Record<string, unknown>;

/** `field`, `field:asc` or `field:desc` (property names have colons: `eo:cloud_cover:desc`). */
function sortKey(spec: string): { field: string; direction: 'asc' | 'desc' } {
  const m = /^(.*):(asc|desc)$/i.exec(spec.trim());
  const field = (m ? m[1]! : spec).trim();
  if (field === '') throw new UsageError(`--sort: ${JSON.stringify(spec)} names no field`);
  return { field, direction: m ? (m[2]!.toLowerCase() as 'asc' | 'desc') : 'asc' };
}

export function applySearchFlags(base: Body, values: OptionValues): Body {
  const body: Body = { ...base };
  if (values.bbox !== undefined) {
    // Four numbers are the schema's to check (count, ranges): pass what was given.
    body.bbox = values.bbox.split(',').map((v) => numberFlag(v, 'bbox'));
  }
  if (values.datetime !== undefined) body.datetime = values.datetime;
  if (values.collections !== undefined) body.collections = listFlag(values.collections);
  if (values['cloud-max'] !== undefined) {
    const query = { ...(body.query as Body | undefined) };
    const ops = { ...(query['eo:cloud_cover'] as Body | undefined) };
    ops.lte = numberFlag(values['cloud-max'], 'cloud-max');
    query['eo:cloud_cover'] = ops;
    body.query = query;
  }
  // Integer and range checks are the schema's, with its messages.
  if (values.limit !== undefined) body.limit = numberFlag(values.limit, 'limit');
  if (values.offset !== undefined) body.offset = numberFlag(values.offset, 'offset');
  if (values.sort !== undefined) body.sort_by = values.sort.flatMap(listFlag).map(sortKey);
  return body;
}

export async function searchBody(io: CliIo, values: OptionValues): Promise<Body> {
  const given = await jsonInput(io, values);
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
    throw new UsageError('the search body must be a JSON object');
  return applySearchFlags((given as Body | undefined) ?? {}, values);
}
