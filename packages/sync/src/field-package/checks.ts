/**
 * Each record of a package checked before any is taken in: JSON, an object, the id it is filed
 * under being the record's own (a package cannot put a record under another's id), and, for the
 * rows the mirror fills itself (reference lists, archive scenes and lists), every column of the
 * right type. A record that fails refuses the whole package: it is damaged or not ours.
 */
import { readId, type FieldPackageResource } from '@eo/domain';
import { z } from 'zod';
import { readPngHeader } from '../mirror/png-header';
import { REFERENCE_KINDS } from '../pull/reference';
import type { RasterFile } from './pixels';
import { PackageError, type PackagePicture, type PackageRecord } from './read';
import crypto from 'node:crypto';

const text = z.string().max(4096);
const num = z.number().finite().nullable();
const int = z.number().int().nullable();

export const ReferenceRow = z.strictObject({
  // The kinds the mirror keeps (a package carries them all; a new kind is one place to add).
  kind: z.enum(REFERENCE_KINDS),
  id: z.string().min(1).max(512),
  name: text.nullable(),
  json: z.string(),
});

export const ArchiveSceneRow = z.strictObject({
  id: z.string().min(1).max(512),
  collection_id: text.nullable(),
  satellite_id: text.nullable(),
  datetime_us: int,
  cloud_cover: num,
  min_lon: num,
  min_lat: num,
  max_lon: num,
  max_lat: num,
  json: z.string(),
  received_at_us: z.number().int(),
});

export const ArchiveSearchRow = z.strictObject({
  search_id: z.string().min(1).max(512),
  name: text,
  plan: z.string().max(1024 * 1024),
  received: z.number().int().min(0),
  total: int,
  incomplete: z.number().int(),
  drift: z.number().int(),
  skipped: z.number().int(),
  attempted_at_us: int,
  last_complete_at_us: int,
  last_error_json: z
    .string()
    .max(64 * 1024)
    .nullable(),
  scenes: z.array(z.string().min(1).max(512)).max(100_000),
});

/** Where each service record keeps its id. */
const ID_FIELD: Partial<Record<FieldPackageResource, string>> = {
  orders: 'id',
  orderItems: 'id',
  aois: 'aoi_id',
  assets: 'id',
  indices: 'id',
  catalogs: 'id',
  visualizations: 'id',
  deliveries: 'delivery_id',
  jobs: 'id',
};

/** The record's JSON parsed and checked; throws PackageError naming it. */
export function checkRecord(r: PackageRecord): Record<string, unknown> {
  const where = `${r.resource} ${JSON.stringify(r.recordId.slice(0, 80))}`;
  let value: unknown;
  try {
    value = JSON.parse(r.json);
  } catch {
    throw new PackageError(`the package is damaged: ${where} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PackageError(`the package is damaged: ${where} is not a record`);
  const record = value as Record<string, unknown>;
  const field = ID_FIELD[r.resource];
  let own: string | null;
  if (field) own = readId(record[field]);
  else {
    const schema =
      r.resource === 'reference'
        ? ReferenceRow
        : r.resource === 'archiveScenes'
          ? ArchiveSceneRow
          : ArchiveSearchRow;
    const parsed = schema.safeParse(record);
    if (!parsed.success)
      throw new PackageError(
        `the package is damaged: ${where}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      );
    own =
      r.resource === 'reference'
        ? JSON.stringify([record.kind, record.id])
        : String(r.resource === 'archiveScenes' ? record.id : record.search_id);
  }
  if (own !== r.recordId)
    throw new PackageError(`the package is damaged: ${where} holds the record ${own ?? '(no id)'}`);
  return record;
}

const VARIANT = /^(thumbnail|overview|index:\d{4}-\d{2}-\d{2})$/;

/** A picture's bytes are the PNG its row says they are. */
export function checkPicture(p: PackagePicture): void {
  const where = `the picture ${p.variant.slice(0, 20)} of ${p.recordId.slice(0, 80)}`;
  if (!VARIANT.test(p.variant))
    throw new PackageError(`the package is damaged: ${where} is of no known kind`);
  if (crypto.createHash('sha256').update(p.data).digest('hex') !== p.sha256)
    throw new PackageError(`the package is damaged: ${where} does not match its hash`);
  if (!readPngHeader(p.data))
    throw new PackageError(`the package is damaged: ${where} is not a PNG`);
}

/**
 * A raster's parts passed on as they are read, its size and SHA-256 checked as they go: the last
 * part throws when they differ from the raster's row (a sink keeps nothing of a raster whose
 * parts did not all come through).
 */
export function* checkedParts(file: RasterFile, parts: Iterable<Buffer>): Generator<Buffer> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for (const part of parts) {
    size += part.length;
    if (size > file.bytes) break;
    hash.update(part);
    yield part;
  }
  if (size !== file.bytes || hash.digest('hex') !== file.sha256)
    throw new PackageError(
      `the package is damaged: the raster ${file.name} of ${file.recordId.slice(0, 80)} does not match its size and hash`,
    );
}
