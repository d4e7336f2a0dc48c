/**
 * Suggestions for the create forms (`lookups.get`), gathered from what the mirror and the outbox
 * have seen: the spec has no endpoint listing projects, bandsets, satellites or workflows.
 * Small tables, so plain SQL over the stored JSON and JS over the queued inputs.
 */
import type { OutboxEntry } from '@eo/sync';
import type Database from 'better-sqlite3';
import type { Lookups } from '../shared/contract';

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
  // Bands as JSON arrays; merged per satellite below.
  const satelliteBands = sqlite.prepare(
    `SELECT satellite_id AS id, json_extract(json, '$.bands') AS bands FROM mirror_indices
       WHERE satellite_id IS NOT NULL
     UNION ALL
     SELECT json_extract(json, '$.satellite_id'), json_extract(json, '$.eo_bands') FROM mirror_aois
       WHERE json_extract(json, '$.satellite_id') IS NOT NULL`,
  );

  return {
    get(): Lookups {
      const projectIds = new Set(projects.all() as string[]);
      const bandsetIds = new Set(bandsets.all() as string[]);
      const workflowIds = new Set(workflows.all() as string[]);
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
          }
        }
        if (e.kind === 'job') {
          const w = str(input['workflow_id']);
          if (w) workflowIds.add(w);
        }
        if (e.kind === 'aoi' || e.kind === 'index') addSatellite(str(input['satellite_id']), null);
      }

      return {
        projectIds: sorted(projectIds),
        bandsetIds: sorted(bandsetIds),
        satellites: sorted(satellites.keys()).map((id) => ({
          id,
          bands: sorted(satellites.get(id)!),
        })),
        workflowIds: sorted(workflowIds),
      };
    },
  };
}
