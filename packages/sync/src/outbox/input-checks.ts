/**
 * The checks a create passes before it is queued (enqueue, edit, a handed-over entry): the
 * kind's schema (and the service profile's, when known), its local references, an order's
 * offline checks (`order-checks.ts`), an AOI's and a visualization's satellites
 * (`satellite-checks.ts`). Nothing is queued when one fails: an `OutboxInputError` says why.
 */
import { OUTBOX_INPUT_SCHEMAS, type ServiceDialect } from '@eo/domain';
import type Database from 'better-sqlite3';
import { OutboxInputError, type FieldProblem } from './errors';
import { OUTBOX_KINDS, profileSchema, type OutboxKind } from './kinds';
import { LIVE_ORDER_STATES, makeOrderChecks } from './order-checks';
import { checkReference, findReferences } from './references';
import { makeSatelliteChecks } from './satellite-checks';
import type { OutboxStore } from './store';

export interface InputCheckOptions {
  /** References must point at entries queued before this seq (Infinity: any). */
  readonly seqLimit: number;
  /** The entry being edited (not a duplicate of itself). */
  readonly self?: string | undefined;
  /** False for an order in doubt from another laptop (the order placed may be this very one). */
  readonly duplicates?: boolean | undefined;
  /**
   * The input is a parsed `OutboxCreate`'s (the caller's trust boundary ran the kind's schema):
   * not parsed again. Everything else (profile, references, offline checks) still runs.
   */
  readonly checked?: boolean | undefined;
}

/** Returns the check of one create, which returns the ids of the entries it depends on. */
export function makeInputChecks(deps: {
  readonly db: Database.Database;
  readonly store: OutboxStore;
  readonly dialect?: ServiceDialect | undefined;
}) {
  const { store, dialect } = deps;
  const checkOrder = makeOrderChecks(deps.db);
  const checkSatellites = makeSatelliteChecks(deps.db);

  const refused = (
    message: string,
    issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  ) =>
    new OutboxInputError(
      message,
      issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );

  return function checkInput(kind: OutboxKind, input: unknown, opts: InputCheckOptions): string[] {
    if (!OUTBOX_KINDS.includes(kind)) {
      throw new OutboxInputError('Unknown kind', [
        { path: '', message: `kind must be one of ${OUTBOX_KINDS.join(', ')}` },
      ]);
    }
    let data: unknown = input;
    if (!opts.checked) {
      // The kind's schema (@eo/domain, shared with the desktop's contract): open values pass;
      // the client checks the service profile's own rules when the entry is sent.
      const parsed = OUTBOX_INPUT_SCHEMAS[kind].safeParse(input);
      if (!parsed.success) throw refused(`Invalid ${kind}`, parsed.error.issues);
      data = parsed.data;
    }
    const profile = dialect && profileSchema(dialect, kind);
    const forProfile = profile ? profile.safeParse(input) : undefined;
    if (forProfile && !forProfile.success) {
      throw refused(`Invalid ${kind} for the ${dialect} service profile`, forProfile.error.issues);
    }
    const fields = input as Record<string, unknown>;
    const problems: FieldProblem[] = [];
    if (kind === 'order' && fields.dry_run === true) {
      // A dry run is a quote: it creates nothing, so there is nothing to queue for later.
      problems.push({
        path: 'dry_run',
        message: 'a dry run is not queued; ask for a quote online',
      });
    }
    const dependsOn = new Set<string>();
    for (const ref of findReferences(kind, fields)) {
      const target = store.get(ref.entryId);
      const visible = target && target.seq < opts.seqLimit ? target : undefined;
      const problem = checkReference(ref, kind, fields, visible);
      if (problem) problems.push({ path: ref.path, message: problem });
      dependsOn.add(ref.entryId);
    }
    if (kind === 'order' && problems.length === 0 && (opts.duplicates ?? true)) {
      const others = store.list(LIVE_ORDER_STATES);
      problems.push(
        ...checkOrder(
          data as Parameters<typeof checkOrder>[0],
          others.filter((e) => e.id !== opts.self),
        ),
      );
    }
    if (kind === 'aoi' && problems.length === 0) problems.push(...checkSatellites.aoi(fields));
    if (kind === 'visualization' && problems.length === 0) {
      problems.push(...checkSatellites.visualization(fields, (id) => store.get(id) ?? undefined));
    }
    if (problems.length) throw new OutboxInputError(`Invalid ${kind}`, problems);
    return [...dependsOn];
  };
}
