/**
 * A record's footprint as a small exact BLOB (`catalog_records.geometry` of the compact
 * layout): what spatial search tests each candidate against (`eo_intersects`) without reading
 * the record, and what the record blob is compressed against (`record-blob.ts`).
 *
 * Byte 0 is the form:
 * - 1, compact: varint dimensions, varint decimals `k`, then the geometry: varint type (1 Point
 *   … 7 GeometryCollection), a collection's count and members, or the coordinates: lists as a
 *   varint `2 n + closed` (a closed list leaves its last position out: it repeats the first),
 *   nested lists as a varint count; each number as the integer `round(v × 10^k)`, written as the
 *   zigzag difference from the same axis of the previous position. About 35 bytes for a
 *   five-point polygon with 6 decimals, where its JSON takes 130.
 * - 0, text: the geometry's JSON text (UTF-8), for anything the compact form cannot hold
 *   exactly (other members, another key order, mixed dimensions, more than 9 decimals, not
 *   GeoJSON at all).
 *
 * Exact: a number with at most `k` decimals is `i / 10^k` for the integer `i` (the division is
 * correctly rounded, as parsing its decimal text is), so every coordinate decodes to the very
 * number encoded, and `JSON.stringify` of the decoded geometry is that of the original.
 */
import { ByteReader, ByteWriter } from './varint';

const TYPES = [
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
] as const;
type GeometryType = (typeof TYPES)[number];

/** How deep positions sit in each type's `coordinates` (0: the position itself). */
const DEPTH: Record<Exclude<GeometryType, 'GeometryCollection'>, number> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

const FORM_TEXT = 0;
const FORM_COMPACT = 1;
const MAX_DECIMALS = 9;
/** Scaled coordinates stay below this, so differences and their zigzag stay safe integers. */
const LIMIT = 2 ** 51;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fewest decimals `v` is exact with (`round(v × 10^k) / 10^k === v`), or -1. */
function decimalsOf(v: number): number {
  if (!Number.isFinite(v)) return -1;
  for (let k = 0, p = 1; k <= MAX_DECIMALS; k++, p *= 10) {
    const i = Math.round(v * p);
    if (Math.abs(i) >= LIMIT) return -1;
    if (i / p === v) return k;
  }
  return -1;
}

/** What the compact form needs to know before writing: dimensions and decimals. */
class Survey {
  dims = -1;
  decimals = 0;
  /** The largest magnitude: scaled by the decimals of all, it must stay below LIMIT. */
  largest = 0;
  ok = true;

  /** Whether the compact form holds every number seen. */
  get compact(): boolean {
    return this.ok && this.dims !== -1 && this.largest * 10 ** this.decimals < LIMIT;
  }

  position(p: unknown): void {
    if (!Array.isArray(p) || p.length < 2) return void (this.ok = false);
    if (this.dims === -1) this.dims = p.length;
    if (p.length !== this.dims) return void (this.ok = false);
    for (const v of p) {
      const k = typeof v === 'number' ? decimalsOf(v) : -1;
      if (k < 0) return void (this.ok = false);
      if (k > this.decimals) this.decimals = k;
      if (Math.abs(v as number) > this.largest) this.largest = Math.abs(v as number);
    }
  }

  coordinates(c: unknown, depth: number): void {
    if (depth === 0) return this.position(c);
    if (!Array.isArray(c)) return void (this.ok = false);
    for (const x of c) {
      this.coordinates(x, depth - 1);
      if (!this.ok) return;
    }
  }

  geometry(g: unknown): void {
    if (!isRecord(g)) return void (this.ok = false);
    const keys = Object.keys(g);
    const type = g.type as GeometryType;
    if (type === 'GeometryCollection') {
      if (keys.length !== 2 || keys[0] !== 'type' || keys[1] !== 'geometries') this.ok = false;
      else if (!Array.isArray(g.geometries)) this.ok = false;
      else for (const m of g.geometries as unknown[]) if (this.ok) this.geometry(m);
      return;
    }
    if (
      typeof type !== 'string' ||
      !Object.hasOwn(DEPTH, type) ||
      keys.length !== 2 ||
      keys[0] !== 'type' ||
      keys[1] !== 'coordinates'
    )
      return void (this.ok = false);
    this.coordinates(g.coordinates, DEPTH[type as keyof typeof DEPTH]);
  }
}

const samePosition = (a: readonly number[], b: readonly number[]) => a.every((v, i) => v === b[i]);

class CompactWriter {
  private readonly prev: number[];
  private readonly scale: number;
  constructor(
    private readonly w: ByteWriter,
    dims: number,
    decimals: number,
  ) {
    this.prev = new Array<number>(dims).fill(0);
    this.scale = 10 ** decimals;
  }

  private position(p: readonly number[]): void {
    for (let d = 0; d < this.prev.length; d++) {
      const s = Math.round(p[d]! * this.scale);
      this.w.int(s - this.prev[d]!);
      this.prev[d] = s;
    }
  }

  private coordinates(c: unknown, depth: number): void {
    if (depth === 0) return this.position(c as number[]);
    const list = c as unknown[];
    if (depth === 1) {
      const positions = list as number[][];
      const n = positions.length;
      const closed = n >= 2 && samePosition(positions[0]!, positions[n - 1]!) ? 1 : 0;
      this.w.uint(n * 2 + closed);
      for (let i = 0; i < n - closed; i++) this.position(positions[i]!);
      return;
    }
    this.w.uint(list.length);
    for (const x of list) this.coordinates(x, depth - 1);
  }

  geometry(g: Record<string, unknown>): void {
    const type = g.type as GeometryType;
    this.w.uint(TYPES.indexOf(type) + 1);
    if (type === 'GeometryCollection') {
      const members = g.geometries as Array<Record<string, unknown>>;
      this.w.uint(members.length);
      for (const m of members) this.geometry(m);
    } else this.coordinates(g.coordinates, DEPTH[type]);
  }
}

/** The BLOB of a record's `details.geometry`; null when it has none (undefined or null). */
export function encodeGeometry(geometry: unknown): Buffer | null {
  if (geometry === undefined || geometry === null) return null;
  const w = new ByteWriter();
  const survey = new Survey();
  survey.geometry(geometry);
  if (survey.compact) {
    w.byte(FORM_COMPACT);
    w.uint(survey.dims);
    w.uint(survey.decimals);
    new CompactWriter(w, survey.dims, survey.decimals).geometry(
      geometry as Record<string, unknown>,
    );
  } else {
    w.byte(FORM_TEXT);
    w.text(JSON.stringify(geometry));
  }
  return w.done();
}

class CompactReader {
  private readonly prev: number[];
  private readonly scale: number;
  constructor(
    private readonly r: ByteReader,
    dims: number,
    decimals: number,
  ) {
    if (dims < 2 || dims > 16 || decimals > MAX_DECIMALS)
      throw new RangeError('geometry blob: bad header');
    this.prev = new Array<number>(dims).fill(0);
    this.scale = 10 ** decimals;
  }

  private position(): number[] {
    const p = new Array<number>(this.prev.length);
    for (let d = 0; d < this.prev.length; d++) {
      const s = this.prev[d]! + this.r.int();
      this.prev[d] = s;
      p[d] = s / this.scale;
    }
    return p;
  }

  private coordinates(depth: number): unknown {
    if (depth === 0) return this.position();
    if (depth === 1) {
      const m = this.r.uint();
      const closed = m % 2;
      const n = (m - closed) / 2;
      const out: number[][] = [];
      for (let i = 0; i < n - closed; i++) out.push(this.position());
      if (closed) out.push([...out[0]!]);
      return out;
    }
    const n = this.r.uint();
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(this.coordinates(depth - 1));
    return out;
  }

  geometry(): Record<string, unknown> {
    const type = TYPES[this.r.uint() - 1];
    if (type === undefined) throw new RangeError('geometry blob: unknown type');
    if (type === 'GeometryCollection') {
      const n = this.r.uint();
      const geometries: unknown[] = [];
      for (let i = 0; i < n; i++) geometries.push(this.geometry());
      return { type, geometries };
    }
    return { type, coordinates: this.coordinates(DEPTH[type]) };
  }
}

/** The geometry a BLOB of `encodeGeometry` holds (throws a RangeError on a damaged one). */
export function decodeGeometry(blob: Uint8Array): unknown {
  const r = new ByteReader(blob);
  const form = r.byte();
  if (form === FORM_TEXT) return JSON.parse(r.rest()) as unknown;
  if (form !== FORM_COMPACT) throw new RangeError('geometry blob: unknown form');
  const dims = r.uint();
  const decimals = r.uint();
  return new CompactReader(r, dims, decimals).geometry();
}

/** The geometry's JSON text, as `JSON.stringify` of what was encoded gives it. */
export function geometryJson(blob: Uint8Array): string {
  if (blob[0] === FORM_TEXT) return new ByteReader(blob, 1).rest();
  return JSON.stringify(decodeGeometry(blob));
}
