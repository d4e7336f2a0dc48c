/**
 * 4.14 GET /v0/archives/collections/{cid}/items and 4.5 POST /v0/search; the provider's
 * GET /v0/archives/collections and POST /v0/archives/search as extensions.
 */
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { skipPage } from '../http/pagination';
import { COLLECTIONS, collectionById } from '../reference/catalog';
import { archiveSearchLinks, makeArchiveSearch } from './archive-search';
import { collectionToWire } from './collections';
import { collectionItemsHref, GEOJSON, withLinks } from './links';
import { makeArchiveLister } from './list';
import { sceneFeature } from './repository';
import { withSignedQuicklooks } from '../imagery/hrefs';
import { makeSatelliteSearch, searchLinks } from './satellite-search';

export function registerArchiveRoutes(router: Router, ctx: AppContext): void {
  const list = makeArchiveLister(ctx.sqlite);
  router.read('listArchiveItems', ({ principal, params, query }) => {
    const collection = collectionById(params.cid);
    if (!collection) throw ApiError.notFound('Collection', params.cid);
    const { rows, total } = list(collection.id, query.limit, query.offset);
    const href = (offset: number) =>
      `${collectionItemsHref(collection.id)}?limit=${query.limit}&offset=${offset}`;
    const links = [{ rel: 'self', href: href(query.offset), type: GEOJSON }];
    if (query.offset + rows.length < total)
      links.push({ rel: 'next', href: href(query.offset + query.limit), type: GEOJSON });
    if (query.offset > 0)
      links.push({
        rel: 'prev',
        href: href(Math.max(0, query.offset - query.limit)),
        type: GEOJSON,
      });
    return {
      type: 'FeatureCollection',
      features: rows.map((r) =>
        withLinks(withSignedQuicklooks(sceneFeature(r), ctx.imagery.signer, principal.orgId)),
      ),
      links,
      numberMatched: total,
      numberReturned: rows.length,
    };
  });

  const search = makeSatelliteSearch(ctx.sqlite);
  router.read('searchSatelliteImages', ({ principal, body }) => {
    const { rows, total } = search(body);
    return {
      items: {
        type: 'FeatureCollection',
        features: rows.map((r) =>
          withLinks(withSignedQuicklooks(sceneFeature(r), ctx.imagery.signer, principal.orgId)),
        ),
        links: searchLinks(body, rows.length, total),
        numberMatched: total,
        numberReturned: rows.length,
      },
      pagination: skipPage(body.limit, body.skip, total),
    };
  });

  router.readExtension('listArchiveCollections', ({ query }) => {
    const wanted = query.ids === undefined ? null : new Set(query.ids);
    return {
      collections: COLLECTIONS.filter((c) => wanted === null || wanted.has(c.id)).map((c) =>
        collectionToWire(ctx.sqlite, c),
      ),
    };
  });

  const searchArchive = makeArchiveSearch(ctx.sqlite);
  router.readExtension('searchArchive', ({ principal, body }) => {
    const { rows, total } = searchArchive(body);
    return {
      type: 'FeatureCollection',
      features: rows.map((r) =>
        withLinks(withSignedQuicklooks(sceneFeature(r), ctx.imagery.signer, principal.orgId)),
      ),
      links: archiveSearchLinks(body, rows.length, total),
      numberMatched: total,
      numberReturned: rows.length,
    };
  });
}
