/**
 * An id typed into a form that the service does not know (issue 26, defect 4): a misspelt
 * workflow failed on send (404), a misspelt project was queued without a word, although the
 * form had the service's lists. Where the service gave a list of that kind (`serviceIds`: its
 * reference list and its records), an id outside it is the field's error, naming the nearest
 * known ones (the CLI's `eo outbox add` warns the same way); the form offers them as one-click
 * fixes (`ui/NearestIds.vue`). Where it gave none, nothing is called unknown: the service
 * decides. Ids of queued creates (`local:`) are never checked here.
 */
import { nearestChoices, type NamedId } from '@eo/domain';
import type { Lookups } from '../../shared/contract';

export type IdKind = 'project' | 'bandset' | 'satellite' | 'workflow';

const LIST: Record<IdKind, { serviceIds: keyof Lookups['serviceIds']; choices: IdChoices }> = {
  project: { serviceIds: 'projects', choices: 'projects' },
  bandset: { serviceIds: 'bandsets', choices: 'bandsets' },
  satellite: { serviceIds: 'satellites', choices: 'satellites' },
  workflow: { serviceIds: 'workflows', choices: 'workflows' },
};
type IdChoices = 'projects' | 'bandsets' | 'satellites' | 'workflows';

/** What the checks read of the lookups. */
export type KnownIds = Pick<Lookups, 'serviceIds' | IdChoices>;

/** No lists at all: nothing is called unknown. */
export const NO_KNOWN_IDS: KnownIds = {
  serviceIds: { projects: [], bandsets: [], satellites: [], workflows: [] },
  projects: [],
  bandsets: [],
  satellites: [],
  workflows: [],
};

/** An id the service does not list, with the nearest ones it does. */
export interface UnknownId {
  readonly kind: IdKind;
  readonly id: string;
  readonly nearest: NamedId[];
}

/** The id as typed, when the service lists ids of its kind and not this one; else null. */
export function unknownId(kind: IdKind, value: string, lookups: KnownIds): UnknownId | null {
  const id = value.trim();
  const known = lookups.serviceIds[LIST[kind].serviceIds];
  if (!id || id.startsWith('local:') || known.length === 0 || known.includes(id)) return null;
  // Names where the lists have them: the service's ids first.
  const named = new Map(lookups[LIST[kind].choices].map((c) => [c.id, c.name] as const));
  const choices = known.map((k) => ({ id: k, name: named.get(k) ?? null }));
  return { kind, id, nearest: nearestChoices(id, choices) };
}

/** "Did you mean …" words of a nearest choice: its id, and its name when it has one. */
export function choiceWords(c: NamedId): string {
  return c.name ? `${c.id} (${c.name})` : c.id;
}

/** The field's error for an unknown id. */
export function unknownIdMessage(u: UnknownId): string {
  const near = u.nearest.length ? ` Did you mean ${u.nearest.map(choiceWords).join(', ')}?` : '';
  return `“${u.id}” is not a ${u.kind} the service lists.${near} If it is new, sync to read the lists again.`;
}

/** The error for `value` as an id of `kind`, or undefined when it is known (or cannot be told). */
export function unknownIdError(kind: IdKind, value: string, lookups: KnownIds): string | undefined {
  const u = unknownId(kind, value, lookups);
  return u ? unknownIdMessage(u) : undefined;
}
