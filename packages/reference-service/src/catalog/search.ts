/**
 * 4.3 POST /v0/catalogs/search: the org's catalog records filtered, sorted and paged in SQL
 * (@eo/catalog-store compiles and runs the request), offset-based pagination `{ limit, offset, total }`.
 *
 * Records are stored as the JSON sent on the wire, so a page is those texts joined, encoded
 * straight into one Buffer: no parse and re-serialise per record (`RawJson`). A spatial search
 * sorts its matches anyway, so it counts them in the same pass (`count(*) OVER ()`); other
 * searches walk an index for the page and count separately.
 */
import type { CatalogSearchRequest } from '@eo/domain';
import { makeCatalogSearch as makeStoreSearch, type CatalogSearchPage } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import type { AppContext } from '../context';
import { RawJson, type Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { JsonParts } from '../http/json-bytes';
import { offsetPage } from '../http/pagination';
import { signCatalogRecordJson } from '../imagery/hrefs';
import type { UrlSigner } from '../imagery/signing';

export type { CatalogSearchPage };

/** The store's search, with SQL-inexpressible requests reported as 400 invalid body. */
export function makeCatalogSearch(sqlite: Database.Database) {
  const search = makeStoreSearch(sqlite);
  return (orgId: string, req: CatalogSearchRequest): CatalogSearchPage => {
    try {
      return search(orgId, req);
    } catch (e) {
      // The request schema rejects these first; a RangeError here is still a client mistake.
      if (e instanceof RangeError) throw ApiError.invalid('body', e.message);
      throw e;
    }
  };
}

/** The response body of a page: its parts, encoded once into a lent Buffer (`http/json-bytes.ts`). */
export function catalogSearchBody(
  page: CatalogSearchPage,
  req: CatalogSearchRequest,
  signer: UrlSigner,
  orgId: string,
): RawJson {
  const pagination = JSON.stringify(offsetPage(req.limit, req.offset, page.total));
  // Quicklook hrefs are signed now, not stored signed (imagery/hrefs.ts).
  const expires = signer.expiresAt();
  const records = page.json.map((j) => signCatalogRecordJson(j, signer, expires, orgId));
  return new RawJson(new JsonParts('{"catalogs":[', records, `],"pagination":${pagination}}`));
}

export function registerCatalogSearch(router: Router, ctx: AppContext): void {
  const search = makeCatalogSearch(ctx.sqlite);
  router.read('searchCatalogs', ({ principal, body }) =>
    catalogSearchBody(search(principal.orgId, body), body, ctx.imagery.signer, principal.orgId),
  );
}
