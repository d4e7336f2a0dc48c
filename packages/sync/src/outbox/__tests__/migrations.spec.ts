/** The drizzle migrations under packages/sync/drizzle replay onto a fresh file and re-open cleanly. */
import { describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDatabase } from './service';

describe('outbox migration', () => {
  it('creates the outbox table with its columns and indexes; re-opening applies nothing twice', () => {
    const local = tempDatabase();
    try {
      const columns = local.sqlite
        .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('outbox') ORDER BY cid")
        .all()
        .map((c) => c.name);
      expect(columns).toEqual([
        'id',
        'seq',
        'kind',
        'input',
        'state',
        'depends_on',
        'attempts',
        'next_attempt_at',
        'last_error',
        'response',
        'remote_id',
        'created_at',
        'updated_at',
        'sent_at',
        'handed_over_at',
        'received_at',
      ]);
      const indexes = local.sqlite
        .prepare<[], { name: string }>("SELECT name FROM pragma_index_list('outbox') ORDER BY name")
        .all()
        .map((i) => i.name);
      expect(indexes).toEqual(expect.arrayContaining(['outbox_seq_unique', 'outbox_state_seq']));
      local.sqlite
        .prepare(
          `INSERT INTO outbox (id, seq, kind, input, state, created_at, updated_at) VALUES ('a', 1, 'order', '{}', 'queued', 1, 1)`,
        )
        .run();
      const applied = local.sqlite.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get();
      local.close();
      const again = openMirrorDatabase(local.file);
      expect(again.sqlite.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get()).toEqual(
        applied,
      );
      expect(again.sqlite.prepare('SELECT id, depends_on FROM outbox').all()).toEqual([
        { id: 'a', depends_on: '[]' },
      ]);
      again.close();
    } finally {
      local.remove();
    }
  });
});
