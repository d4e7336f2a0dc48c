/**
 * Where an API key may be sent: over https to any host, over plain http only to this machine
 * (loopback: 127.0.0.0/8, ::1, localhost), where nobody on the network can read it. Shared by
 * every place a service URL is configured (the desktop's settings, the `eo` CLI).
 */

/** 127.0.0.0/8, ::1 and localhost (URL hostnames: IPv6 in brackets, names lower-cased). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4 !== null && Number(v4[1]) === 127 && v4.slice(2).every((n) => Number(n) <= 255);
}

/** Why an API key must not be sent to `url`, or null when it may. */
export function keyTransportProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol !== 'http:') return 'must be an https URL';
  if (isLoopbackHost(parsed.hostname)) return null;
  return 'plain http is allowed only to this machine (127.0.0.1, ::1, localhost): use https, the API key would cross the network readable';
}

/** `https://host:port` of a URL: what an API key is bound to. */
export function originOf(url: string): string {
  return new URL(url).origin;
}
