/**
 * OGC WKT read back into GeoJSON (CSV imports with a WKT column; what `toWkt` writes and what
 * QGIS and PostGIS export). Z, M and ZM are accepted and the extra numbers dropped; an SRID=…;
 * prefix (EWKT) is skipped. Errors say where in the text parsing stopped.
 */
import type { Geometry, Position } from '@eo/domain';

class Tokens {
  private at = 0;
  constructor(private readonly s: string) {}
  private skip(): void {
    while (this.at < this.s.length && /\s/.test(this.s[this.at]!)) this.at++;
  }
  peek(): string {
    this.skip();
    return this.s[this.at] ?? '';
  }
  word(): string {
    this.skip();
    const m = /^[A-Za-z]+/.exec(this.s.slice(this.at, this.at + 40));
    if (!m) throw this.fail('a geometry keyword');
    this.at += m[0].length;
    return m[0].toUpperCase();
  }
  number(): number {
    this.skip();
    const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(this.s.slice(this.at, this.at + 64));
    if (!m) throw this.fail('a number');
    this.at += m[0].length;
    return Number(m[0]);
  }
  take(c: string): void {
    if (this.peek() !== c) throw this.fail(`"${c}"`);
    this.at++;
  }
  end(): void {
    if (this.peek() !== '') throw this.fail('the end');
  }
  fail(what: string): Error {
    return new Error(`WKT: expected ${what} at character ${this.at + 1}`);
  }
}

function geometry(t: Tokens, depth: number): Geometry | null {
  if (depth > 8) throw new Error('WKT: collections nested too deep');
  const type = t.word();
  if (t.peek() !== '(' && t.peek() !== '') {
    const mod = t.word();
    if (mod === 'EMPTY') return null;
    if (mod !== 'Z' && mod !== 'M' && mod !== 'ZM') throw new Error(`WKT: unknown modifier ${mod}`);
  }
  if (t.peek() !== '(') {
    if (t.word() === 'EMPTY') return null;
    throw t.fail('"(" or EMPTY');
  }
  const pos = (): Position => {
    const p = [t.number(), t.number()];
    // Any third and fourth number (Z, M) is read and dropped, with or without a modifier.
    for (let d = 2; d < 4 && /[-+.\d]/.test(t.peek()); d++) t.number();
    return p;
  };
  const list = <T>(item: () => T): T[] => {
    t.take('(');
    const out = [item()];
    while (t.peek() === ',') {
      t.take(',');
      out.push(item());
    }
    t.take(')');
    return out;
  };
  const ptItem = (): Position => {
    if (t.peek() === '(') {
      t.take('(');
      const p = pos();
      t.take(')');
      return p;
    }
    return pos();
  };
  switch (type) {
    case 'POINT':
      return { type: 'Point', coordinates: list(pos)[0]! };
    case 'LINESTRING':
      return { type: 'LineString', coordinates: list(pos) };
    case 'POLYGON':
      return { type: 'Polygon', coordinates: list(() => list(pos)) };
    case 'MULTIPOINT':
      return { type: 'MultiPoint', coordinates: list(ptItem) };
    case 'MULTILINESTRING':
      return { type: 'MultiLineString', coordinates: list(() => list(pos)) };
    case 'MULTIPOLYGON':
      return { type: 'MultiPolygon', coordinates: list(() => list(() => list(pos))) };
    case 'GEOMETRYCOLLECTION':
      return {
        type: 'GeometryCollection',
        geometries: list(() => geometry(t, depth + 1)).filter((g): g is Geometry => g !== null),
      };
    default:
      throw new Error(`WKT: unknown geometry type ${type}`);
  }
}

/** The geometry of a WKT text; null for an EMPTY one. */
export function readWkt(text: string): Geometry | null {
  const t = new Tokens(text.replace(/^\s*SRID=\d+;/i, ''));
  const g = geometry(t, 0);
  t.end();
  return g;
}
