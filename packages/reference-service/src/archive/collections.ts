/**
 * Our archive collections as STAC Collections (`GET /v0/archives/collections`, the provider's
 * `cosmos.originalCollectionSuccessResponse`). The temporal extent is read from the scenes (the
 * (collection_id, datetime_us) index answers min and max at once); scenes lie anywhere, so the
 * spatial extent is the whole world.
 */
import type { ArchiveCollection } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { stmt } from '../aois/statements';
import type { Collection } from '../reference/catalog';
import { DEMO_PROVIDER } from '../reference/routes';
import { toIsoOrNull } from '../time';
import { collectionItemsHref } from './links';

export function collectionToWire(
  sqlite: Database.Database,
  c: Collection,
): z.input<typeof ArchiveCollection> {
  const span = stmt<[{ cid: string }], { first: number | null; last: number | null }>(
    sqlite,
    `SELECT (SELECT min(datetime_us) FROM archive_scenes WHERE collection_id = @cid) AS first,
            (SELECT max(datetime_us) FROM archive_scenes WHERE collection_id = @cid) AS last`,
  ).get({ cid: c.id })!;
  return {
    type: 'Collection',
    stac_version: '1.0.0',
    id: c.id,
    title: c.title,
    description: c.description,
    license: c.license,
    providers: [{ name: DEMO_PROVIDER, roles: ['producer', 'host'] }],
    summaries: { platform: [...c.satelliteIds], 'processing:level': [c.productLevel] },
    extent: {
      spatial: { bbox: [[-180, -90, 180, 90]] },
      temporal: {
        interval: [[toIsoOrNull(span.first), toIsoOrNull(span.last)]],
      },
    },
    links: [{ rel: 'items', href: collectionItemsHref(c.id), type: 'application/geo+json' }],
  };
}
