/**
 * `next` links of a list answer. Services that page by link give them as STAC links
 * (`links: [{ rel: 'next', href }]`, on the body or on a FeatureCollection inside it) or as
 * `pagination.next` / `next` (a URL). A link is followed only when it points at the same origin
 * and the same path as the request that returned it (same endpoint, another query): the API key
 * is never sent anywhere else, and the answer is decoded with the endpoint's own schema.
 */

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface NextLink {
  readonly href: string;
  /** A STAC link's method (`POST` for searches); GET when absent. */
  readonly method: string;
}

function stacNext(links: unknown): NextLink | undefined {
  if (!Array.isArray(links)) return undefined;
  for (const l of links) {
    if (isRecord(l) && l.rel === 'next' && typeof l.href === 'string' && l.href !== '') {
      return {
        href: l.href,
        method: typeof l.method === 'string' ? l.method.toUpperCase() : 'GET',
      };
    }
  }
  return undefined;
}

function urlNext(v: unknown): NextLink | undefined {
  if (typeof v === 'string' && v !== '') return { href: v, method: 'GET' };
  if (isRecord(v) && typeof v.href === 'string' && v.href !== '')
    return { href: v.href, method: 'GET' };
  return undefined;
}

/** The `next` link of an answer, wherever the service put it; `nested` is e.g. satellite `items`. */
export function nextLinkOf(json: unknown, nested?: string): NextLink | undefined {
  if (!isRecord(json)) return undefined;
  const inner = nested !== undefined && isRecord(json[nested]) ? json[nested] : undefined;
  return (
    stacNext(json.links) ??
    stacNext(inner?.links) ??
    urlNext(isRecord(json.pagination) ? json.pagination.next : undefined) ??
    urlNext(json.next)
  );
}

/**
 * The path and query (relative to `baseUrl`) to request for `href`, when it is a GET link to the
 * same origin and path as `sentPath` (the path and query of the request that returned it);
 * undefined otherwise. Relative hrefs resolve against the request's URL. A bare token (not a
 * path or URL) is not a link.
 */
export function sameEndpointLink(
  link: NextLink,
  baseUrl: string,
  sentPath: string,
): string | undefined {
  if (link.method !== 'GET') return undefined;
  if (!/^(https?:\/\/|\/|\?)/i.test(link.href)) return undefined;
  let asked: URL;
  let target: URL;
  try {
    asked = new URL(baseUrl + sentPath);
    target = new URL(link.href, asked);
  } catch {
    return undefined;
  }
  if (target.origin !== asked.origin || target.pathname !== asked.pathname) return undefined;
  const q = sentPath.indexOf('?');
  return (q >= 0 ? sentPath.slice(0, q) : sentPath) + target.search;
}
