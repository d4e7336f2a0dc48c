/**
 * @eo/sync owns the mirror database: the desktop app goes through `openMirror`, never through
 * SQL naming sync's tables. eslint.config.js enforces it (`no-restricted-syntax`); these probes
 * fail when the rule silently stops matching.
 */
import { describe, expect, it } from 'vitest';
import { ruleIds } from './lint-probe';

const backend = 'apps/desktop/src/backend/probe.ts';
const sql = (text: string) =>
  `declare const db: { prepare(s: string): unknown };\nexport const s = db.prepare(${text});\n`;

describe("no SQL on @eo/sync's tables in the desktop app", () => {
  it('flags mirror tables, the outbox and sync state named in SQL, quoted or in a template', async () => {
    for (const text of [
      "'SELECT name FROM mirror_aois WHERE aoi_id = ?'",
      '`SELECT count(*) FROM mirror_orders`',
      "'UPDATE outbox SET state = ? WHERE id = ?'",
      "'select * from sync_state'",
      "'SELECT record_json FROM catalog_records WHERE id = ?'",
      '`DELETE FROM ${"mirror_tasks"}`',
    ]) {
      expect(await ruleIds(backend, sql(text)), text).toContain('no-restricted-syntax');
    }
    expect(
      await ruleIds('apps/desktop/src/main/probe.ts', sql("'DELETE FROM mirror_indices'")),
    ).toContain('no-restricted-syntax');
  });

  it("leaves the app's own tables, method names and tests alone", async () => {
    expect(await ruleIds(backend, sql("'SELECT value_json FROM settings WHERE key = ?'"))).toEqual(
      [],
    );
    expect(await ruleIds(backend, "export const m = 'outbox.list';\n")).toEqual([]);
    expect(
      await ruleIds(
        'apps/desktop/src/backend/__tests__/probe.ts',
        sql("'UPDATE outbox SET x = 1'"),
      ),
    ).toEqual([]);
  });
});
