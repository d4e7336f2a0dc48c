/**
 * Ids that change spelling: a service that upper-cases an id on one page, or pads it with
 * spaces. Ids are compared exactly, but an id that differs from a known one only by case or
 * surrounding whitespace is the same record: it is reported as drift and never stored twice
 * (a second row would be a duplicate, and the sweep would remove the first as unseen). The
 * record keeps the spelling the mirror knew first, in its key and in its JSON, so a row always
 * says the id it is stored under; the drift sample keeps what arrived.
 *
 * Within a pass (`canonicalItems`): a record under a spelling the pass saw before is written
 * under that one. Against the mirror (`mergeVariants`): a record the pass stored under a new
 * spelling while the mirror holds it under another is merged into the stored row at the end of
 * the pass; a full pass looks among the rows it did not see, an incremental one asks SQLite for
 * the rows whose id reads the same up to case and spacing.
 */
import { readId } from '@eo/domain';
import type { MirrorWriter, ResourceName } from '../mirror/writers';
import { driftCounts, idFieldOf, type DriftIssue } from './drift';
import { isRecord, type PassContext } from './pass-context';
import { normId, type PassIds } from './pass-ids';

export function variantMessage(resource: ResourceName, received: string, kept: string): string {
  return `${resource} ${JSON.stringify(received)}: differs from ${JSON.stringify(kept)} only by case or surrounding whitespace: kept as one record, ${JSON.stringify(kept)}`;
}

/** What a page brought, under the pass's spellings, for one list. */
export interface Canonical {
  readonly items: unknown[];
  readonly issues: DriftIssue[];
  readonly repeats: number;
}

/**
 * `items` with each id in the spelling the pass stores it under (a variant becomes a copy with
 * the known spelling), counted as seen by list `part`. `base`: the position of the first item in
 * the batch being written (for the drift issues).
 */
export function canonicalItems(
  resource: ResourceName,
  field: string,
  part: number,
  items: readonly unknown[],
  ids: PassIds,
  base: number,
): Canonical {
  const out: unknown[] = [];
  const issues: DriftIssue[] = [];
  let repeats = 0;
  items.forEach((item, i) => {
    const id = isRecord(item) ? readId(item[field]) : null;
    if (id === null) {
      ids.addAnonymous(part);
      out.push(item);
      return;
    }
    const seen = ids.see(part, id);
    if (seen.repeat) repeats++;
    if (seen.id === id) {
      out.push(item);
      return;
    }
    out.push({ ...(item as Record<string, unknown>), [field]: seen.id });
    issues.push({
      source: 'schema',
      index: base + i,
      recordId: seen.id,
      path: field,
      message: variantMessage(resource, id, seen.id),
    });
  });
  return { items: out, issues, repeats };
}

/**
 * Rows the mirror holds under another spelling of an id this pass stored: `[stored, seen]`
 * pairs. `full`: among the rows the pass did not see; otherwise asked of SQLite by the
 * normalised ids of the pass (`writer.variantsOf`).
 */
export function storedVariants(
  writer: MirrorWriter,
  passId: string,
  ids: PassIds,
  full: boolean,
  passNorms: () => string[],
): Array<[stored: string, seen: string]> {
  const pairs: Array<[string, string]> = [];
  const candidates = full
    ? (writer.unseen?.(passId) ?? [])
    : (writer.variantsOf?.(passId, passNorms()) ?? []);
  for (const stored of candidates) {
    const seen = ids.spellingOf(normId(stored));
    if (seen !== undefined && seen !== stored) pairs.push([stored, seen]);
  }
  return pairs;
}

/**
 * Records the pass stored under a new spelling while the mirror holds them under another (an
 * id upper-cased or padded on some page): merged into the row the mirror had, under its
 * spelling, and reported as drift. `full`: looked for among the rows the pass did not see.
 */
export function mergeVariants(
  ctx: PassContext,
  resource: ResourceName,
  passId: string,
  ids: PassIds,
  full: boolean,
): void {
  const { states, driftStore } = ctx;
  const writer = ctx.writers[resource];
  if (!writer.read || !writer.remove) return;
  const pairs = storedVariants(writer, passId, ids, full, () => ids.norms());
  if (pairs.length === 0) return;
  const field = idFieldOf(resource);
  ctx.sqlite.transaction(() => {
    const issues: DriftIssue[] = [];
    for (const [stored, seen] of pairs) {
      const record = writer.read!(seen);
      if (!isRecord(record)) continue;
      writer.remove!([seen]);
      writer.write([{ ...record, [field]: stored }], passId);
      ids.respell(seen, stored);
      const message = variantMessage(resource, seen, stored);
      issues.push({
        source: 'schema',
        index: issues.length,
        recordId: stored,
        path: field,
        message,
      });
    }
    driftStore.sample(resource, passId, issues);
    const st = states.get(resource)!;
    const at = { part: st.part, checkpoint: st.checkpoint, seen: st.seen, total: st.total };
    states.checkpoint(resource, at, driftCounts(issues));
  })();
}
