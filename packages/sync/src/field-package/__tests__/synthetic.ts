/**
 * Mirrors made without a service, for the package tests that need many of them: records built
 * with the domain's builders (one organisation), written with the mirror's own writers, a real
 * PNG per catalog record, and the origin a sync would have recorded.
 */
import zlib from 'node:zlib';
import path from 'node:path';
import { buildAoi, buildCatalogRecord, buildOrder, createRng } from '@eo/domain/testing';
import { pngCrc32 } from '@eo/domain';
import { openMirrorDatabase } from '../../db/open';
import { makeImageryStore } from '../../mirror/imagery';
import { makeMirrorOrigin } from '../../mirror/origin';
import { makeMirrorWriters } from '../../mirror/writers';
import Database from 'better-sqlite3';

/** A real 4x4 RGB PNG of one colour. */
export function png(shade: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(pngCrc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(4, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc(4 * (1 + 4 * 3), shade & 0xff);
  for (let row = 0; row < 4; row++) raw[row * 13] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface SyntheticOptions {
  readonly organisation?: string;
  /** The service the mirror says it synced from (null: never synced). */
  readonly service?: string | null;
  readonly catalogs?: number;
  readonly seed?: number;
}

/** A mirror database at `<dir>/<name>/mirror.sqlite` with records, pictures and an origin. */
export function syntheticMirror(dir: string, name: string, o: SyntheticOptions = {}): string {
  const file = path.join(dir, name, 'mirror.sqlite');
  const db = openMirrorDatabase(file);
  try {
    const rng = createRng(o.seed ?? 7);
    const org = o.organisation ?? 'org-site';
    const w = makeMirrorWriters(db.sqlite);
    const imagery = makeImageryStore(db.sqlite, file);
    const catalogs = Array.from({ length: o.catalogs ?? 4 }, (_, k) =>
      buildCatalogRecord({ id: `cat-${k}`, org_id: org }, { rng }),
    );
    db.sqlite.transaction(() => {
      w.orders.write([buildOrder({ id: 'order-1', org_id: org }, { rng })], 'pass-1');
      w.aois.write([buildAoi({ aoi_id: 'aoi-1', org_id: org }, { rng })], 'pass-1');
      w.catalogs.write(catalogs, 'pass-1');
    })();
    catalogs.forEach((c, k) => imagery.put(c.id, 'thumbnail', png(40 * k)));
    if (o.service !== null) makeMirrorOrigin(db.sqlite).synced(o.service ?? 'https://eo.example');
  } finally {
    db.close();
  }
  return file;
}

/** What a refusal must leave as it was: every table's rows and the pictures' files. */
export function everything(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare<[], string>(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%rtree%' ORDER BY name",
      )
      .pluck()
      .all();
    return JSON.stringify(
      tables.map((t) => {
        // Every row in one order: by its first two columns (or its only one).
        const columns = db.prepare(`SELECT * FROM "${t}" LIMIT 0`).columns().length;
        const order = columns > 1 ? '1, 2' : '1';
        return [t, db.prepare(`SELECT * FROM "${t}" ORDER BY ${order}`).raw().all()];
      }),
      (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : v),
    );
  } finally {
    db.close();
  }
}
