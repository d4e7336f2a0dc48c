/**
 * Where the mirror's data came from (`mirror_origin`, one row): the service of the last sync and
 * the organisation its records belong to. The organisation is read from the records themselves
 * (orders, AOIs and the service's projects carry `org_id`) when they name exactly one;
 * otherwise the one stored (learned at a sync, or adopted from what a fresh mirror took in).
 * Field packages and handed-over outboxes carry the origin they were made at and are refused by
 * a mirror of another (`originMismatch` of @eo/domain).
 */
import { originMismatch, type ServiceOrigin } from '@eo/domain';
import type Database from 'better-sqlite3';

/** Data from another laptop's mirror that this one will not take. */
export class OriginMismatchError extends Error {
  constructor(
    what: string,
    readonly from: ServiceOrigin,
    readonly here: ServiceOrigin,
    why: string,
  ) {
    super(`${what} is from another origin: ${why}. Nothing was changed.`);
    this.name = 'OriginMismatchError';
  }
}

/** A service's name as origins compare it: `https://host:port` (or a caller's own name). */
export function serviceName(urlOrName: string): string {
  try {
    const url = new URL(urlOrName);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // a name such as the desktop's `embedded`
  }
  return urlOrName;
}

export type OriginSource = 'sync' | 'package' | 'handover';

export function makeMirrorOrigin(sqlite: Database.Database, nowUs = () => Date.now() * 1000) {
  const row = sqlite.prepare<[], { service: string | null; organisation: string | null }>(
    'SELECT service, organisation FROM mirror_origin WHERE id = 1',
  );
  const put = sqlite.prepare(
    `INSERT INTO mirror_origin (id, service, organisation, source, updated_at_us)
     VALUES (1, @service, @organisation, @source, @at)
     ON CONFLICT (id) DO UPDATE SET service = excluded.service,
       organisation = excluded.organisation, source = excluded.source,
       updated_at_us = excluded.updated_at_us`,
  );
  // Two distinct ids are enough to know the records do not name one organisation.
  const organisations = sqlite
    .prepare<[], string>(
      `SELECT DISTINCT CAST(org AS TEXT) FROM (
         SELECT json_extract(json, '$.org_id') AS org FROM mirror_orders
         UNION ALL SELECT json_extract(json, '$.org_id') FROM mirror_aois
         UNION ALL SELECT json_extract(json, '$.org_id') FROM mirror_reference
           WHERE kind = 'project'
       ) WHERE org IS NOT NULL AND org <> '' LIMIT 2`,
    )
    .pluck();

  function read(): ServiceOrigin {
    const stored = row.get();
    const named = organisations.all();
    return {
      service: stored?.service ?? null,
      organisation: named.length === 1 ? named[0]! : (stored?.organisation ?? null),
    };
  }

  function check(what: string, from: ServiceOrigin, configured: string | null): ServiceOrigin {
    const recorded = read();
    const here: ServiceOrigin = {
      ...recorded,
      service: recorded.service ?? (configured === null ? null : serviceName(configured)),
    };
    const why = originMismatch(from, here);
    if (why) throw new OriginMismatchError(what, from, here, why);
    return here;
  }

  return {
    read,
    /** A sync against `service` ended (whatever it completed): its records are this origin's. */
    synced(service: string): void {
      const named = organisations.all();
      put.run({
        service: serviceName(service),
        organisation: named.length === 1 ? named[0]! : (row.get()?.organisation ?? null),
        source: 'sync',
        at: nowUs(),
      });
    },
    /**
     * Data made at `from` may come in (throws OriginMismatchError otherwise); what this mirror
     * did not know of its origin it adopts from `from`, so later data is checked against it.
     * `configured`: the service this laptop is set up for, taken as the mirror's when the
     * mirror has none recorded. Call inside the transaction that takes the data in.
     */
    admit(
      what: string,
      from: ServiceOrigin,
      source: OriginSource,
      configured: string | null,
    ): void {
      const here = check(what, from, configured);
      if (here.service === null || here.organisation === null)
        put.run({
          service: here.service ?? from.service,
          organisation: here.organisation ?? from.organisation,
          source,
          at: nowUs(),
        });
    },
    /** `admit`'s check alone: throws OriginMismatchError, changes nothing. */
    check,
  };
}

export type MirrorOrigin = ReturnType<typeof makeMirrorOrigin>;
