/**
 * External links: opened in the user's browser only when the parsed URL is https, carries no
 * user:password@, and its host is exactly one we trust. Parsing with WHATWG URL (what Chromium
 * uses) defeats look-alikes: `https://stacspec.org@evil.example` has host evil.example,
 * `https://stacspec.org.evil.example` is not stacspec.org, unicode hosts become punycode.
 */

/** Documentation hosts a catalog record or the app may link to. */
export const DEFAULT_LINK_HOSTS: readonly string[] = [
  'stacspec.org',
  'github.com',
  'doi.org',
  'spdx.org',
  'www.openstreetmap.org',
  'www.naturalearthdata.com',
];

export function isAllowedExternalUrl(raw: unknown, allowedHosts: readonly string[]): boolean {
  if (typeof raw !== 'string' || raw.length > 4096) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.port !== '') return false;
  const host = url.hostname.toLowerCase();
  return allowedHosts.some((h) => h.toLowerCase() === host);
}

/** The configured service's host joins the list when it is https (record links point there). */
export function linkHostsFor(serviceUrl: string | null): string[] {
  const hosts = [...DEFAULT_LINK_HOSTS];
  if (serviceUrl) {
    try {
      const u = new URL(serviceUrl);
      if (u.protocol === 'https:' && u.port === '') hosts.push(u.hostname.toLowerCase());
    } catch {
      // not a URL: nothing to add
    }
  }
  return hosts;
}
