/**
 * Links to a record a field team passes around (a chat message, a note on a map):
 * `eo-field-desk://scene/<id>`, `eo-field-desk://aoi/<id>`, `eo-field-desk://order/<id>` and
 * `eo-field-desk://search?name=<name>&q=<the search as JSON>` (its filters travel in the link:
 * the other laptop has no such saved search). Electron registers the scheme as the app's; in
 * browser mode the same link is the page's route `#/link/<kind>/<id>` (`?name=&q=` for a
 * search). This file is the one place that writes and reads them. A link is input from
 * anywhere: bounded in length, ids of a safe alphabet, nothing but these four kinds.
 */
import { z } from 'zod';
import { CatalogSearchRequest } from './search/request';

export const RECORD_LINK_SCHEME = 'eo-field-desk';
const PREFIX = `${RECORD_LINK_SCHEME}://`;

/** The longest link read (a search's filters with a drawn area fit; a pasted essay does not). */
export const MAX_RECORD_LINK_CHARS = 8192;

/** A record id in a link: the characters the service's and the mirror's ids use, no more. */
const LinkId = z
  .string()
  .min(1, 'an id is missing')
  .max(200, 'the id is longer than any record id')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:~-]*$/, 'not a record id');

export const RECORD_LINK_KINDS = ['scene', 'aoi', 'order', 'search'] as const;
export type RecordLinkKind = (typeof RECORD_LINK_KINDS)[number];

export const RecordLink = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('scene'), id: LinkId }),
  z.strictObject({ kind: z.literal('aoi'), id: LinkId }),
  z.strictObject({ kind: z.literal('order'), id: LinkId }),
  z.strictObject({
    kind: z.literal('search'),
    name: z.string().trim().min(1).max(200).optional(),
    /** The search's filters; paging is the list's business, not the link's. */
    query: CatalogSearchRequest,
  }),
]);
export type RecordLink = z.infer<typeof RecordLink>;

/** The parts of a link as both addresses carry them: `<kind>/<id>?name=&q=`. */
export interface RecordLinkParts {
  readonly kind: string;
  readonly id?: string | undefined;
  readonly name?: string | undefined;
  readonly q?: string | undefined;
}

export type RecordLinkResult =
  | { readonly ok: true; readonly link: RecordLink }
  | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): RecordLinkResult => ({ ok: false, reason });

/** The search's filters as the link carries them: without paging. */
function queryOf(query: CatalogSearchRequest): Record<string, unknown> {
  const { limit: _limit, offset: _offset, ...rest } = query;
  return rest;
}

/** The link's parts, for the browser route (`/link/<kind>/<id>` and its query). */
export function recordLinkParts(link: RecordLink): RecordLinkParts {
  if (link.kind !== 'search') return { kind: link.kind, id: link.id };
  return { kind: 'search', name: link.name, q: JSON.stringify(queryOf(link.query)) };
}

/** `eo-field-desk://scene/<id>`, `eo-field-desk://search?name=…&q=…`. */
export function formatRecordLink(link: RecordLink): string {
  const parts = recordLinkParts(link);
  if (parts.id !== undefined) return `${PREFIX}${parts.kind}/${encodeURIComponent(parts.id)}`;
  const params = [
    ...(parts.name !== undefined ? [`name=${encodeURIComponent(parts.name)}`] : []),
    `q=${encodeURIComponent(parts.q ?? '{}')}`,
  ];
  return `${PREFIX}${parts.kind}?${params.join('&')}`;
}

/** A link from its parts (decoded), checked: what both addresses end in. */
export function recordLinkFromParts(parts: RecordLinkParts): RecordLinkResult {
  if (!(RECORD_LINK_KINDS as readonly string[]).includes(parts.kind))
    return refuse(`"${parts.kind.slice(0, 40)}" is not something a link opens`);
  let candidate: unknown;
  if (parts.kind === 'search') {
    if (parts.q === undefined) return refuse('the search link carries no filters');
    let query: unknown;
    try {
      query = JSON.parse(parts.q);
    } catch {
      return refuse('the search link’s filters are not readable');
    }
    candidate = { kind: 'search', ...(parts.name ? { name: parts.name } : {}), query };
  } else {
    candidate = { kind: parts.kind, id: parts.id ?? '' };
  }
  const parsed = RecordLink.safeParse(candidate);
  if (parsed.success) return { ok: true, link: parsed.data };
  const issue = parsed.error.issues[0];
  return refuse(`${issue?.path.join('.') || 'link'}: ${issue?.message ?? 'not valid'}`);
}

const decode = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/** Reads a link someone passed on; refuses other schemes, overlong links and bad ids. */
export function parseRecordLink(raw: unknown): RecordLinkResult {
  if (typeof raw !== 'string') return refuse('not a link');
  if (raw.length > MAX_RECORD_LINK_CHARS)
    return refuse(`the link is longer than ${MAX_RECORD_LINK_CHARS} characters`);
  const text = raw.trim();
  if (text.slice(0, PREFIX.length).toLowerCase() !== PREFIX)
    return refuse(`not an ${RECORD_LINK_SCHEME}:// link`);
  const rest = text.slice(PREFIX.length);
  const at = rest.indexOf('?');
  const path = (at === -1 ? rest : rest.slice(0, at)).replace(/\/+$/, '');
  const search = at === -1 ? '' : rest.slice(at + 1);
  const segments = path.split('/');
  if (segments.length > 2) return refuse('the link has more parts than a record’s');
  const id = segments[1] === undefined ? undefined : decode(segments[1]);
  if (id === null) return refuse('the link’s id is not readable');
  const params = new Map<string, string>();
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = decode((eq === -1 ? '' : pair.slice(eq + 1)).replaceAll('+', ' '));
    if (key === null || value === null) return refuse('the link’s filters are not readable');
    params.set(key, value);
  }
  return recordLinkFromParts({
    kind: (segments[0] ?? '').toLowerCase(),
    id,
    name: params.get('name'),
    q: params.get('q'),
  });
}
