/**
 * OGC WKB, read and written (GeoPackage geometry blobs carry it). Reads both byte orders, ISO
 * Z/M/ZM type codes (1001, 2001, 3001, ...) and EWKB's Z/M flags; heights and measures are
 * skipped, so every geometry comes out 2D. Every read is bounds-checked: a truncated or lying
 * blob is an error with a reason, never a read past the end or a huge allocation.
 */
import type { Geometry, Position } from '@eo/domain';

const TYPES = [
  '',
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
] as const;

class Reader {
  private at: number;
  constructor(
    private readonly view: DataView,
    start: number,
  ) {
    this.at = start;
  }
  need(bytes: number): void {
    if (this.at + bytes > this.view.byteLength)
      throw new Error('the geometry blob ends early (truncated WKB)');
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.at++);
  }
  u32(le: boolean): number {
    this.need(4);
    const v = this.view.getUint32(this.at, le);
    this.at += 4;
    return v;
  }
  f64(le: boolean): number {
    this.need(8);
    const v = this.view.getFloat64(this.at, le);
    this.at += 8;
    return v;
  }
  /** A count, checked against the bytes left (each item at least `minBytes`). */
  count(le: boolean, minBytes: number): number {
    const n = this.u32(le);
    if (n * minBytes > this.view.byteLength - this.at)
      throw new Error(`the geometry blob says ${n} items but is too short for them`);
    return n;
  }
}

function readGeometry(r: Reader, depth: number): Geometry {
  if (depth > 8) throw new Error('geometry collections nested too deep');
  const le = r.u8() === 1;
  let code = r.u32(le);
  let dims = 2;
  if (code & 0x80000000) dims += 1; // EWKB Z
  if (code & 0x40000000) dims += 1; // EWKB M
  code &= 0x0fffffff;
  if (code & 0x20000000) code &= ~0x20000000; // EWKB SRID flag: skip the SRID
  const iso = Math.floor(code / 1000);
  if (iso === 1 || iso === 2) dims += 1;
  if (iso === 3) dims += 2;
  const kind = TYPES[code % 1000];
  if (!kind) throw new Error(`unknown WKB geometry type ${code}`);
  const pos = (): Position => {
    const x = r.f64(le);
    const y = r.f64(le);
    for (let d = 2; d < dims; d++) r.f64(le);
    return [x, y];
  };
  const line = (): Position[] => {
    const n = r.count(le, 8 * dims);
    const out: Position[] = new Array<Position>(n);
    for (let i = 0; i < n; i++) out[i] = pos();
    return out;
  };
  const rings = (): Position[][] => {
    const n = r.count(le, 4);
    const out: Position[][] = [];
    for (let i = 0; i < n; i++) out.push(line());
    return out;
  };
  const members = (): Geometry[] => {
    const n = r.count(le, 5);
    const out: Geometry[] = [];
    for (let i = 0; i < n; i++) out.push(readGeometry(r, depth + 1));
    return out;
  };
  switch (kind) {
    case 'Point':
      return { type: 'Point', coordinates: pos() };
    case 'LineString':
      return { type: 'LineString', coordinates: line() };
    case 'Polygon':
      return { type: 'Polygon', coordinates: rings() };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: members().map((g) => only(g, 'Point')) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: members().map((g) => only(g, 'LineString')) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: members().map((g) => only(g, 'Polygon')) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: members() };
  }
}

type Coordinates = { Point: Position; LineString: Position[]; Polygon: Position[][] };

function only<T extends keyof Coordinates>(g: Geometry, type: T): Coordinates[T] {
  if (g.type !== type) throw new Error(`a Multi${type} holds a ${g.type}`);
  return (g as unknown as { coordinates: Coordinates[T] }).coordinates;
}

export function readWkb(bytes: Uint8Array, offset = 0): Geometry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return readGeometry(new Reader(view, offset), 0);
}

/** Little-endian 2D WKB of a geometry. */
export function writeWkb(g: Geometry): Uint8Array {
  const out: Array<{ kind: 'u8' | 'u32' | 'f64'; v: number }> = [];
  const put = (kind: 'u8' | 'u32' | 'f64', v: number) => out.push({ kind, v });
  const head = (code: number) => {
    put('u8', 1);
    put('u32', code);
  };
  const line = (ps: readonly Position[]) => {
    put('u32', ps.length);
    for (const p of ps) {
      put('f64', p[0]!);
      put('f64', p[1]!);
    }
  };
  const polygon = (rs: readonly Position[][]) => {
    put('u32', rs.length);
    rs.forEach(line);
  };
  const write = (g: Geometry): void => {
    switch (g.type) {
      case 'Point':
        head(1);
        put('f64', g.coordinates[0]!);
        put('f64', g.coordinates[1]!);
        return;
      case 'LineString':
        head(2);
        return line(g.coordinates);
      case 'Polygon':
        head(3);
        return polygon(g.coordinates);
      case 'MultiPoint':
        head(4);
        put('u32', g.coordinates.length);
        return g.coordinates.forEach((c) => write({ type: 'Point', coordinates: c }));
      case 'MultiLineString':
        head(5);
        put('u32', g.coordinates.length);
        return g.coordinates.forEach((c) => write({ type: 'LineString', coordinates: c }));
      case 'MultiPolygon':
        head(6);
        put('u32', g.coordinates.length);
        return g.coordinates.forEach((c) => write({ type: 'Polygon', coordinates: c }));
      case 'GeometryCollection':
        head(7);
        put('u32', g.geometries.length);
        return g.geometries.forEach(write);
    }
  };
  write(g);
  const size = out.reduce((n, o) => n + (o.kind === 'u8' ? 1 : o.kind === 'u32' ? 4 : 8), 0);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const o of out) {
    if (o.kind === 'u8') {
      view.setUint8(at, o.v);
      at += 1;
    } else if (o.kind === 'u32') {
      view.setUint32(at, o.v, true);
      at += 4;
    } else {
      view.setFloat64(at, o.v, true);
      at += 8;
    }
  }
  return bytes;
}
