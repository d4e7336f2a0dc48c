/**
 * Answers of read-only queries kept while the database is unchanged: neither this connection
 * (`total_changes()`) nor another one (`PRAGMA data_version`: a sync's write thread, another
 * process) has written since: any write at all drops them, whatever wrote it. None is kept from
 * inside a transaction, whose rows a rollback may take back. (The search totals keep their
 * counts so while a list pages.)
 */
import type Database from 'better-sqlite3';

export interface KeptAnswers<T> {
  /** The kept answer of `key`, or `answer()`'s, kept if the database is not mid-transaction. */
  get(key: string, answer: () => T): T;
}

/** At most `most` answers are kept per connection (all dropped when that many are held). */
export function keptAnswers<T>(sqlite: Database.Database, most: number): KeptAnswers<T> {
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const changes = sqlite.prepare('SELECT total_changes()').pluck();
  const kept = new Map<string, T>();
  let stamp = '';
  return {
    get(key, answer) {
      if (sqlite.inTransaction) return answer();
      const now = `${dataVersion.get() as number}:${changes.get() as number}`;
      if (now !== stamp) {
        kept.clear();
        stamp = now;
      }
      if (kept.has(key)) return kept.get(key) as T;
      if (kept.size >= most) kept.clear();
      const value = answer();
      kept.set(key, value);
      return value;
    },
  };
}
