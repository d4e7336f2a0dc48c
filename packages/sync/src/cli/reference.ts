/**
 * The service's reference lists in the CLI: what `eo sync` read (the engine reads them first,
 * `pull/reference.ts`), their counts in `eo status`, and the warning `eo outbox add` gives for
 * an id none of them (nor any mirrored record) knows. Never a refusal: a mirror can be stale.
 */
import { nearestChoices } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeLookups, type LookupChoice } from '../mirror/lookups';
import type { OutboxEntry, OutboxKind } from '../outbox/index';
import { isLocalId } from '../outbox/references';
import {
  REFERENCE_KINDS,
  referenceCounts,
  type ReferenceKind,
  type ReferenceReport,
} from '../pull/reference';
import type { CommandContext } from './context';

const PLURAL: Record<ReferenceKind, string> = {
  project: 'projects',
  bandset: 'bandsets',
  satellite: 'satellites',
  workflow: 'workflows',
  store: 'stores',
};

const countsText = (counts: Partial<Record<ReferenceKind, number>>): string =>
  REFERENCE_KINDS.filter((k) => counts[k] !== undefined)
    .map((k) => `${counts[k]} ${PLURAL[k]}`)
    .join(', ');

/** After `eo sync`: what was read (table output) and what the service does not offer (stderr). */
export function writeReferenceReport(
  ctx: CommandContext,
  r: ReferenceReport,
  format: 'json' | 'table',
): void {
  if (format === 'table' && Object.keys(r.read).length > 0)
    ctx.io.stdout.write(`\nreference lists: ${countsText(r.read)}\n`);
  if (r.absent.length > 0)
    ctx.io.stderr.write(
      `eo: reference lists unavailable on this service (${r.absent.map((k) => PLURAL[k]).join(', ')}: not offered, 404): the records synced; eo outbox add cannot check those ids\n`,
    );
  for (const f of r.failed)
    ctx.io.stderr.write(
      `eo: reference lists: ${PLURAL[f.kind]} not read (${f.message}): the records synced; the next sync reads them again\n`,
    );
}

/** `eo status`: entries mirrored per list (`referenceCounts`). */
export function referenceLine(counts: Record<ReferenceKind, number>): string {
  const none = REFERENCE_KINDS.every((k) => counts[k] === 0);
  return `reference lists: ${none ? 'none mirrored (eo sync reads them where the service offers them)' : countsText(counts)}\n`;
}

/** An id a queued input names that the mirror does not know, with the nearest known ones. */
export interface UnknownReference {
  readonly path: string;
  readonly kind: ReferenceKind;
  readonly id: string;
  readonly nearest: LookupChoice[];
}

type Input = Record<string, unknown>;

/** The project, bandset, satellite and workflow ids a create names, with their fields. */
function namedIds(kind: OutboxKind, input: Input): Array<[string, ReferenceKind, unknown]> {
  const ids: Array<[string, ReferenceKind, unknown]> = [];
  if (kind === 'aoi' || kind === 'job') ids.push(['project_id', 'project', input['project_id']]);
  if (kind === 'aoi' || kind === 'index')
    ids.push(['satellite_id', 'satellite', input['satellite_id']]);
  if (kind === 'job') ids.push(['workflow_id', 'workflow', input['workflow_id']]);
  if (kind === 'order' && Array.isArray(input['order_items'])) {
    (input['order_items'] as Input[]).forEach((item, i) => {
      ids.push([`order_items.${i}.project_id`, 'project', item['project_id']]);
      const bandset = (item['bandset'] as Input | undefined)?.['bandset_id'];
      if (bandset !== undefined)
        ids.push([`order_items.${i}.bandset.bandset_id`, 'bandset', bandset]);
    });
  }
  return ids;
}

/**
 * Ids of `input` unknown to the mirror, for the kinds whose list the service gave us (without a
 * list, the ids mirrored records show are too few to call anything unknown). Known: listed by
 * the service, or seen in a mirrored record or another queued create.
 */
export function unknownReferences(
  sqlite: Database.Database,
  kind: OutboxKind,
  input: unknown,
  entries: () => readonly OutboxEntry[],
): UnknownReference[] {
  const listed = referenceCounts(sqlite);
  const wanted = namedIds(kind, input as Input).filter(
    ([, k, id]) => listed[k] > 0 && typeof id === 'string' && !isLocalId(id),
  );
  if (wanted.length === 0) return [];
  const lookups = makeLookups(sqlite, entries)();
  const known: Record<ReferenceKind, LookupChoice[]> = {
    project: lookups.projects,
    bandset: lookups.bandsets,
    satellite: lookups.satellites,
    workflow: lookups.workflows,
    store: lookups.stores,
  };
  return wanted.flatMap(([path, k, id]) =>
    known[k].some((c) => c.id === id)
      ? []
      : [{ path, kind: k, id: id as string, nearest: nearestChoices(id as string, known[k]) }],
  );
}

export function writeUnknownReferences(ctx: CommandContext, unknown: UnknownReference[]): void {
  for (const u of unknown) {
    const names = u.nearest.map((c) => (c.name ? `${c.id} (${c.name})` : c.id)).join(', ');
    ctx.io.stderr.write(
      `eo: warning: ${u.path}: ${u.kind} ${JSON.stringify(u.id)} is not in the mirrored lists${names ? `; nearest known: ${names}` : ''} (queued anyway: the mirror may be out of date)\n`,
    );
  }
}
