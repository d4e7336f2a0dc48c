/**
 * STAC links of archive features and pages. Hrefs are root-relative (`/v0/...`): STAC allows
 * relative hrefs, and the service then never trusts a Host header to build absolute URLs.
 * The spec has no single-item or collection endpoint, so a feature's `collection` link is the
 * collection's item list and its `root` link is the service's OpenAPI document.
 */
import type { Link } from '@eo/domain';
import { collectionById } from '../reference/catalog';
import type { ArchiveFeatureIn } from './feature';

export const GEOJSON = 'application/geo+json';

export function collectionItemsHref(collectionId: string): string {
  return `/v0/archives/collections/${encodeURIComponent(collectionId)}/items`;
}

export function featureLinks(collectionId: string): Link[] {
  return [
    {
      rel: 'collection',
      href: collectionItemsHref(collectionId),
      type: GEOJSON,
      title: collectionById(collectionId)?.title ?? collectionId,
    },
    {
      rel: 'root',
      href: '/v0/openapi.json',
      type: 'application/vnd.oai.openapi+json;version=3.0',
      title: 'EO imagery service',
    },
  ];
}

export function withLinks(feature: ArchiveFeatureIn): ArchiveFeatureIn {
  return { ...feature, links: featureLinks(feature.collection ?? '') };
}
