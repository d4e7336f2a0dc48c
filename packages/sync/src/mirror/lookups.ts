/**
 * Choices for create forms: the service's reference lists where it has them (`mirror_reference`,
 * read at each sync: `pull/reference.ts`), plus the ids the mirrored records and the outbox show
 * (the spec itself lists no projects, bandsets, satellites or workflows). Small tables, so plain
 * SQL over the stored JSON and JS over the queued inputs.
 */
import { readId } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { OutboxEntry } from '../outbox/index';

/** A known id and, when the service listed it, its name. */
export interface LookupChoice {
  readonly id: string;
  readonly name: string | null;
}

export interface LookupSatellite extends LookupChoice {
  /** The service's list of its bands, or (`bandsListed` false) the bands records showed. */
  readonly bands: string[];
  /** Whether `bands` is the service's own list (complete), not a guess from mirrored records. */
  readonly bandsListed: boolean;
  /** The data providers of its collections, when the service listed them (AOI `provider`). */
  readonly providers: string[];
  /** Its archive collections (`{ id, name }`), when the service listed them: what a satellite search names. */
  readonly collections: LookupChoice[];
}

export interface LookupBandset extends LookupChoice {
  /** The satellite it belongs to, when the service says (ours does; the real one does not). */
  readonly satelliteId: string | null;
  readonly bands: string[];
}

/** A delivery store the service listed (`GET /v0/stores`): what `cloud_info.config` names. */
export interface LookupStore extends LookupChoice {
  /** S3, GCS, AZBLOB (the provider's store types), or null when the service did not say. */
  readonly type: string | null;
  readonly bucket: string | null;
}

export interface Lookups {
  /** Every known id (listed by the service or seen in records), sorted. */
  readonly projectIds: string[];
  readonly bandsetIds: string[];
  readonly workflowIds: string[];
  /** The same ids with names: listed ones first in the service's order, then the others. */
  readonly projects: LookupChoice[];
  readonly bandsets: LookupBandset[];
  readonly workflows: LookupChoice[];
  /** Satellites with their bands (the service's list when it has one). */
  readonly satellites: LookupSatellite[];
  /** Cloud locations (`cloud_delivery.config`, `cloud_info.config`) records and the outbox name. */
  readonly cloudConfigs: string[];
  /** The service's delivery stores (empty when it lists none). */
  readonly stores: LookupStore[];
  /**
   * Ids the service itself gave, per kind: its reference list and its mirrored records (not the
   * outbox, whose ids were only typed here). Empty for a kind it gave no list of: then no id of
   * that kind can be called unknown (a form flags an id outside a non-empty one).
   */
  readonly serviceIds: Record<'projects' | 'bandsets' | 'satellites' | 'workflows', string[]>;
}

type Input = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const sorted = (s: Iterable<string>) => [...s].sort();

export function makeLookups(sqlite: Database.Database, entries: () => readonly OutboxEntry[]) {
  const column = (sql: string) => sqlite.prepare(sql).pluck();
  const projects = column(
    `SELECT project_id FROM mirror_order_items WHERE project_id IS NOT NULL
     UNION SELECT project_id FROM mirror_aois WHERE project_id IS NOT NULL`,
  );
  const bandsets = column(
    `SELECT DISTINCT json_extract(json, '$.bandset.bandset_id') FROM mirror_order_items
     WHERE json_extract(json, '$.bandset.bandset_id') IS NOT NULL`,
  );
  const workflows = column(
    `SELECT DISTINCT json_extract(json, '$.workflow_id') FROM mirror_jobs
     WHERE json_extract(json, '$.workflow_id') IS NOT NULL`,
  );
  const cloudConfigs = column(
    `SELECT json_extract(json, '$.cloud_delivery.config') AS c FROM mirror_order_items WHERE c IS NOT NULL
     UNION SELECT json_extract(json, '$.cloud_delivery.config') AS c FROM mirror_deliveries WHERE c IS NOT NULL`,
  );
  // Bands as JSON arrays; merged per satellite below.
  const satelliteBands = sqlite.prepare(
    `SELECT satellite_id AS id, json_extract(json, '$.bands') AS bands FROM mirror_indices
       WHERE satellite_id IS NOT NULL
     UNION ALL
     SELECT json_extract(json, '$.satellite_id'), json_extract(json, '$.eo_bands') FROM mirror_aois
       WHERE json_extract(json, '$.satellite_id') IS NOT NULL`,
  );

  const reference = sqlite.prepare<
    [],
    { kind: string; id: string; name: string | null; json: string }
  >('SELECT kind, id, name, json FROM mirror_reference ORDER BY rowid');

  return (): Lookups => {
    const projectIds = new Set(projects.all() as string[]);
    const bandsetIds = new Set(bandsets.all() as string[]);
    const workflowIds = new Set(workflows.all() as string[]);
    const configs = new Set((cloudConfigs.all() as unknown[]).filter((c): c is string => !!str(c)));
    const satellites = new Map<string, Set<string>>();
    const addSatellite = (id: string | null, bands: unknown) => {
      if (!id) return;
      const set = satellites.get(id) ?? new Set<string>();
      satellites.set(id, set);
      if (Array.isArray(bands)) for (const b of bands) if (str(b)) set.add(b as string);
    };
    for (const row of satelliteBands.all() as Array<{ id: string; bands: string | null }>) {
      addSatellite(row.id, row.bands ? (JSON.parse(row.bands) as unknown) : null);
    }
    // What the service's records name, before the outbox adds what was typed here.
    const seenInRecords = {
      project: [...projectIds],
      bandset: [...bandsetIds],
      satellite: [...satellites.keys()],
      workflow: [...workflowIds],
    };

    // What the outbox holds and has not given up on (a refused input is no suggestion).
    for (const e of entries()) {
      if (e.state === 'failed' || e.state === 'blocked' || e.state === 'cancelled') continue;
      const input = e.input as Input;
      const project = str(input['project_id']);
      if (project) projectIds.add(project);
      if (e.kind === 'order' && Array.isArray(input['order_items'])) {
        for (const item of input['order_items'] as Input[]) {
          const p = str(item['project_id']);
          if (p) projectIds.add(p);
          const b = str((item['bandset'] as Input | undefined)?.['bandset_id']);
          if (b) bandsetIds.add(b);
          const c = str((item['cloud_delivery'] as Input | undefined)?.['config']);
          if (c) configs.add(c);
        }
      }
      if (e.kind === 'delivery' && Array.isArray(input['deliveries'])) {
        for (const d of input['deliveries'] as Input[]) {
          const c = str((d['cloud_info'] as Input | undefined)?.['config']);
          if (c) configs.add(c);
        }
      }
      if (e.kind === 'job') {
        const w = str(input['workflow_id']);
        if (w) workflowIds.add(w);
      }
      if (e.kind === 'aoi' || e.kind === 'index') addSatellite(str(input['satellite_id']), null);
    }

    const listed = readReference(reference.all());
    const choices = (kind: string, seen: Set<string>): LookupChoice[] => {
      const own = listed.filter((r) => r.kind === kind);
      const ids = new Set(own.map((r) => r.id));
      return [
        ...own.map((r) => ({ id: r.id, name: r.name })),
        ...sorted([...seen].filter((id) => !ids.has(id))).map((id) => ({ id, name: null })),
      ];
    };
    const projectChoices = choices('project', projectIds);
    const workflowChoices = choices('workflow', workflowIds);
    const bandsetChoices = choices('bandset', bandsetIds).map((c) => {
      const r = listed.find((x) => x.kind === 'bandset' && x.id === c.id);
      return {
        ...c,
        satelliteId: text(r?.json['satellite_id']),
        bands: bandNames(r?.json['bands']),
      };
    });
    const sats = choices('satellite', new Set(satellites.keys())).map((c) => {
      const r = listed.find((x) => x.kind === 'satellite' && x.id === c.id);
      const own = r && Array.isArray(r.json['bands']) ? bandNames(r.json['bands']) : null;
      const providers = collectionProviders(r?.json['collections']);
      const collections = satelliteCollections(r?.json['collections']);
      return own
        ? { ...c, bands: own, bandsListed: true, providers, collections }
        : {
            ...c,
            bands: sorted(satellites.get(c.id) ?? []),
            bandsListed: false,
            providers,
            collections,
          };
    });

    const serviceIds = (kind: keyof typeof seenInRecords): string[] => {
      const own = listed.filter((r) => r.kind === kind).map((r) => r.id);
      return own.length === 0 ? [] : sorted(new Set([...own, ...seenInRecords[kind]]));
    };

    return {
      projectIds: sorted(projectChoices.map((c) => c.id)),
      bandsetIds: sorted(bandsetChoices.map((c) => c.id)),
      workflowIds: sorted(workflowChoices.map((c) => c.id)),
      projects: projectChoices,
      bandsets: bandsetChoices,
      workflows: workflowChoices,
      satellites: sats,
      cloudConfigs: sorted(configs),
      stores: listed
        .filter((r) => r.kind === 'store')
        .map((r) => {
          const configs = r.json['configs'];
          const bucket =
            configs && typeof configs === 'object' ? (configs as Input)['bucket'] : null;
          return { id: r.id, name: r.name, type: text(r.json['type']), bucket: text(bucket) };
        }),
      serviceIds: {
        projects: serviceIds('project'),
        bandsets: serviceIds('bandset'),
        satellites: serviceIds('satellite'),
        workflows: serviceIds('workflow'),
      },
    };
  };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Band names of a listed bands array (`[{ name }]`, or plain names). */
function bandNames(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((b: unknown) => (typeof b === 'string' ? b : text((b as Input | null)?.['name'])))
    .filter((b): b is string => b !== null);
}

/** Distinct `provider` values of a listed satellite's collections. */
function collectionProviders(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const names = v.map((c: unknown) => text((c as Input | null)?.['provider']));
  return sorted(new Set(names.filter((n): n is string => n !== null)));
}

/** A listed satellite's collections as choices, in the service's order (ids read leniently). */
function satelliteCollections(v: unknown): LookupChoice[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((c: unknown) => {
    const id = readId((c as Input | null)?.['id']);
    return id === null ? [] : [{ id, name: text((c as Input | null)?.['name']) }];
  });
}

function readReference(
  rows: Array<{ kind: string; id: string; name: string | null; json: string }>,
) {
  return rows.map((r) => {
    let json: Input = {};
    try {
      const parsed = JSON.parse(r.json) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Input;
    } catch {
      // A stored row is our own JSON.stringify: unreadable only if the file was damaged.
    }
    return { kind: r.kind, id: r.id, name: r.name, json };
  });
}
