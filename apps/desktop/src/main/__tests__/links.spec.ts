import { describe, expect, it } from 'vitest';
import { DEFAULT_LINK_HOSTS, isAllowedExternalUrl, linkHostsFor } from '../links';

const hosts = linkHostsFor('https://eo.example.com');

describe('external link allowlist', () => {
  it('allows https links to trusted hosts', () => {
    expect(isAllowedExternalUrl('https://stacspec.org/en/about/', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://GitHub.com/radiantearth/stac-spec', hosts)).toBe(true);
    expect(isAllowedExternalUrl('https://eo.example.com/v0/catalogs/x', hosts)).toBe(true);
  });

  it.each([
    ['userinfo trick', 'https://stacspec.org@evil.example/'],
    ['userinfo with password', 'https://stacspec.org:pw@evil.example/'],
    ['userinfo on a trusted host', 'https://user@stacspec.org/'],
    ['lookalike suffix', 'https://stacspec.org.evil.example/'],
    ['lookalike prefix', 'https://evilstacspec.org/'],
    ['subdomain of trusted host', 'https://evil.github.com/'],
    ['unicode lookalike', 'https://gіthub.com/'],
    ['trailing-dot host', 'https://github.com./'],
    ['backslash trick', 'https://evil.example\\@github.com/'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: with host-like text', 'javascript://github.com/%0aalert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['http downgrade', 'http://github.com/'],
    ['http downgrade of the service', 'http://eo.example.com/'],
    ['non-default port', 'https://github.com:8443/'],
    ['protocol-relative', '//github.com/'],
    ['relative path', '/settings'],
    ['empty', ''],
    ['not a string', 42],
  ])('refuses %s', (_name, url) => {
    expect(isAllowedExternalUrl(url, hosts)).toBe(false);
  });

  it('adds the service host only when it is https on the default port', () => {
    expect(linkHostsFor('http://127.0.0.1:8080')).toEqual([...DEFAULT_LINK_HOSTS]);
    expect(linkHostsFor('https://eo.example.com:8443')).toEqual([...DEFAULT_LINK_HOSTS]);
    expect(linkHostsFor(null)).toEqual([...DEFAULT_LINK_HOSTS]);
    expect(linkHostsFor('https://EO.example.com/api')).toContain('eo.example.com');
  });
});
