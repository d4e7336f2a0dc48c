/**
 * What the catalog browser needs from the mirror, in the shapes of the contract: compact rows
 * for a page of results (offline search: same SQL, same answers as the service; read from the
 * mirror's columns, no record decoded or parsed), the footprints of ALL matches in one compact
 * message, their cloud-cover histogram, and one full record. The SQL is @eo/sync's. The
 * footprints the first screen drew are kept for the next launch once that screen is up (@eo/sync
 * `search/kept-footprints.ts`: SQLite drops them when the catalog changes).
 */
import type { CatalogListRow } from '@eo/catalog-store';
import { isoTimestamp } from '@eo/domain';
import type { Mirror } from '@eo/sync';
import {
  encodeFootprints,
  type CatalogPage,
  type CatalogQuery,
  type CatalogRecordView,
  type CatalogRow,
  type CloudHistogram,
  type Footprints,
} from '../shared/contract';

export function makeCatalogView(mirror: Mirror, firstScreenShown?: Promise<void>) {
  // Once the first screen is up, after the call that showed it. Only a shortcut: when they
  // cannot be kept (the disk full, the mirror closed meanwhile) the next launch reads every ring.
  void firstScreenShown?.then(() =>
    setImmediate(() => {
      try {
        mirror.catalog.keepFootprints();
      } catch {
        // Nothing is lost.
      }
    }),
  );
  /** Encoded answers by the mirror's (kept) answer: the launch's warm-up call encodes once. */
  const encoded = new WeakMap<object, Uint8Array>();
  return {
    /** `query` was validated by dispatch: the mirror's search takes it as parsed. */
    search(query: CatalogQuery): CatalogPage {
      const page = mirror.catalog.rows(query);
      return {
        total: page.pagination.total ?? page.rows.length,
        limit: page.pagination.limit,
        offset: page.pagination.offset,
        items: page.rows.map(listRow),
      };
    },
    /** One binary message (`footprints-wire.ts`): no 12 MB of JSON for 100,000 records. */
    footprints: (query: CatalogQuery): Footprints => {
      const set = mirror.catalog.footprints(query);
      let bytes = encoded.get(set);
      if (!bytes) encoded.set(set, (bytes = encodeFootprints(set)));
      return bytes;
    },
    /** `query` was validated by dispatch; its cloud filter is left out by the mirror. */
    cloudHistogram: (query: CatalogQuery): CloudHistogram => mirror.catalog.cloudHistogram(query),
    get: (id: string) => mirror.catalog.get(id) as CatalogRecordView | null,
  };
}

export type CatalogView = ReturnType<typeof makeCatalogView>;

/**
 * The list row of a page row read from columns: the values search filters on, as it reads
 * them (an acquisition instant written in any readable form is shown in one; the footprint's
 * bounds as the map and the R*Tree have them).
 */
function listRow(r: CatalogListRow): CatalogRow {
  return {
    id: r.id,
    collection: r.collection,
    datetime: r.datetimeUs === null ? null : isoTimestamp.format(r.datetimeUs, { offset: 'Z' }),
    cloudCover: r.cloudCover,
    offNadir: r.offNadir,
    gsd: r.gsd,
    platform: r.platform,
    bbox: r.bounds,
  };
}
