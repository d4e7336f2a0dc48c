/**
 * Creates whose satellites do not match, checked when they are queued (issue 26, defect 3): an
 * AOI on `sat-kestrel-1` built from an Aurora scene, a visualization of an index made for
 * another satellite than its AOI's. The service refuses both on send (the reference service:
 * "scene … was taken by sat-aurora-1, not sat-kestrel-1", "index … is for sat-aurora-1; this AOI
 * is on sat-kestrel-1"), and what waits for them is blocked; the device can know it offline.
 *
 * What the mirror says of a scene's satellite: a kept archive scene's `satellite_id`, else the
 * mirrored catalog record's collection, which the service's satellite list names under the
 * satellites whose scenes it holds (one collection may hold several: Aurora-1 and -2). An AOI's or index's satellite: the mirrored record, or the queued create a `local:`
 * id names. Anything the mirror does not know is not guessed about: accepted, as before.
 */
import type Database from 'better-sqlite3';
import { makeOfflineCatalogSearch } from '../search/catalog';
import type { FieldProblem } from './errors';
import { isLocalId, LOCAL_PREFIX } from './references';
import type { OutboxEntry } from './store';

type Input = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export function makeSatelliteChecks(db: Database.Database) {
  const search = makeOfflineCatalogSearch(db);
  const archiveSatellite = db
    .prepare('SELECT satellite_id FROM mirror_archive_scenes WHERE id = ?')
    .pluck();
  const satellites = db.prepare("SELECT id, json FROM mirror_reference WHERE kind = 'satellite'");
  const aoiSatellite = db
    .prepare("SELECT json ->> '$.satellite_id' FROM mirror_aois WHERE aoi_id = ?")
    .pluck();
  const indexSatellite = db.prepare('SELECT satellite_id FROM mirror_indices WHERE id = ?').pluck();

  /** Collection id -> the satellites it holds scenes of, from the service's satellite list. */
  function satellitesOfCollection(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const row of satellites.all() as Array<{ id: string; json: string }>) {
      const collections = (JSON.parse(row.json) as { collections?: unknown }).collections;
      if (!Array.isArray(collections)) continue;
      for (const c of collections) {
        const id = text((c as Input | null)?.['id']);
        if (id) out.set(id, [...(out.get(id) ?? []), row.id]);
      }
    }
    return out;
  }

  /** Each scene's possible satellites (one, or those of its collection), where the mirror says. */
  function sceneSatellites(ids: readonly string[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const rest: string[] = [];
    for (const id of ids) {
      const sat = text(archiveSatellite.get(id));
      if (sat) out.set(id, [sat]);
      else rest.push(id);
    }
    if (rest.length === 0) return out;
    const byCollection = satellitesOfCollection();
    if (byCollection.size === 0) return out;
    for (let i = 0; i < rest.length; i += 1000) {
      const chunk = [...new Set(rest.slice(i, i + 1000))];
      for (const r of search({ item_ids: chunk, limit: 1000 }).catalogs) {
        const d = r.details as { id?: unknown; collection?: unknown };
        const id = text(d.id);
        const sat = byCollection.get(text(d.collection) ?? '');
        if (id && sat && !out.has(id)) out.set(id, sat);
      }
    }
    return out;
  }

  /** The satellite a queued create (`local:<entry>`) or a mirrored record names. */
  function satelliteOf(
    ref: unknown,
    mirrored: (id: string) => unknown,
    entry: (id: string) => OutboxEntry | undefined,
  ): string | undefined {
    if (isLocalId(ref)) {
      const queued = entry(ref.slice(LOCAL_PREFIX.length).split('#')[0]!);
      return text(queued?.input['satellite_id']);
    }
    return typeof ref === 'string' ? text(mirrored(ref)) : undefined;
  }

  return {
    /** An AOI's scenes that another satellite took. */
    aoi(input: Input): FieldProblem[] {
      const satellite = text(input['satellite_id']);
      const ids = (Array.isArray(input['item_ids']) ? input['item_ids'] : []).filter(
        (id): id is string => typeof id === 'string',
      );
      if (!satellite || ids.length === 0) return [];
      const known = sceneSatellites(ids);
      return ids.flatMap((id, k) => {
        const took = known.get(id);
        if (!took || took.includes(satellite)) return [];
        const by = took.join(' or ');
        return [
          {
            path: `item_ids.${k}`,
            message: `scene ${JSON.stringify(id)} was taken by ${by}, not ${satellite}: choose scenes of ${satellite}, or the satellite ${by}`,
          },
        ];
      });
    },
    /** A visualization whose index is made for another satellite than its AOI's. */
    visualization(input: Input, entry: (id: string) => OutboxEntry | undefined): FieldProblem[] {
      const aoi = satelliteOf(input['aoi_id'], (id) => aoiSatellite.get(id), entry);
      const index = satelliteOf(input['index_id'], (id) => indexSatellite.get(id), entry);
      if (!aoi || !index || aoi === index) return [];
      return [
        {
          path: 'index_id',
          message: `index ${JSON.stringify(input['index_id'])} is for ${index}; this AOI is on ${aoi}: choose an index of ${aoi}`,
        },
      ];
    },
  };
}
