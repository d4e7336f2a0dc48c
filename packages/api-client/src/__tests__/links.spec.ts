/** Which `next` links a pager follows: same origin and path only, never a bare token or a POST. */
import { describe, expect, it } from 'vitest';
import { nextLinkOf, sameEndpointLink } from '../links';

const get = (href: string) => ({ href, method: 'GET' });

describe('sameEndpointLink', () => {
  const base = 'https://eo.example/api';
  const sent = '/v0/orders?limit=1000&offset=0';
  it('absolute, root-relative and query-only links to the same endpoint', () => {
    expect(sameEndpointLink(get('https://eo.example/api/v0/orders?offset=100'), base, sent)).toBe(
      '/v0/orders?offset=100',
    );
    expect(sameEndpointLink(get('/api/v0/orders?cursor=abc'), base, sent)).toBe(
      '/v0/orders?cursor=abc',
    );
    expect(sameEndpointLink(get('?offset=200'), base, sent)).toBe('/v0/orders?offset=200');
  });
  it('another origin (host, port or scheme), another path, a token or a POST: not followed', () => {
    for (const href of [
      'https://evil.example/api/v0/orders?offset=100',
      'https://eo.example:8443/api/v0/orders?offset=100',
      'http://eo.example/api/v0/orders?offset=100',
      'https://eo.example/api/v0/aois?offset=100',
      '/v0/orders?offset=100', // outside the base path
      'eyJvZmZzZXQiOjEwMH0',
      '//evil.example/api/v0/orders',
    ])
      expect(sameEndpointLink(get(href), base, sent), href).toBeUndefined();
    expect(
      sameEndpointLink({ href: '/api/v0/orders', method: 'POST' }, base, sent),
    ).toBeUndefined();
  });
});

describe('nextLinkOf', () => {
  it('STAC links (on the body or a nested FeatureCollection), pagination.next, next', () => {
    expect(
      nextLinkOf({
        links: [
          { rel: 'self', href: '/a' },
          { rel: 'next', href: '/b' },
        ],
      }),
    ).toEqual(get('/b'));
    expect(
      nextLinkOf({ items: { links: [{ rel: 'next', href: '/s', method: 'post' }] } }, 'items'),
    ).toEqual({ href: '/s', method: 'POST' });
    expect(nextLinkOf({ pagination: { next: '/c' } })).toEqual(get('/c'));
    expect(nextLinkOf({ next: { href: '/d' } })).toEqual(get('/d'));
    expect(nextLinkOf({ pagination: { next: null }, links: [] })).toBeUndefined();
  });
});
