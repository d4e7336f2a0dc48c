/**
 * A coordinate reference system's name and EPSG code read from its WKT (WKT2 `proj:wkt2`, or
 * WKT1): the detail panel names the CRS ("WGS 84 / UTM zone 33N (EPSG:32633)") and keeps the
 * WKT behind a disclosure. Only the top level is read: the name is the first quoted text, the
 * code the `ID["EPSG",n]` (WKT1: `AUTHORITY["EPSG","n"]`) of the CRS itself, not of a part.
 */
export interface CrsName {
  readonly name: string | null;
  readonly epsg: number | null;
}

const NAME = /^\s*[A-Za-z]+\s*\[\s*"([^"]*)"/;
const TOP_ID = /^(?:ID|AUTHORITY)\s*\[\s*"EPSG"\s*,\s*"?(\d+)"?/i;

/** The CRS's name and EPSG code; null where the WKT does not say (or is not WKT). */
export function crsOfWkt(wkt: string): CrsName {
  const name = NAME.exec(wkt)?.[1]?.trim() || null;
  let epsg: number | null = null;
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < wkt.length; i++) {
    const c = wkt[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 1 && (c === 'I' || c === 'A' || c === 'i' || c === 'a')) {
      const id = TOP_ID.exec(wkt.slice(i, i + 40));
      if (id && /[,[\s]/.test(wkt[i - 1] ?? ',')) epsg = Number(id[1]);
    }
  }
  return { name, epsg };
}

/** "WGS 84 / UTM zone 33N (EPSG:32633)", the name or the code alone, or null. */
export function crsLabel(wkt: string): string | null {
  const { name, epsg } = crsOfWkt(wkt);
  const code = epsg === null ? null : `EPSG:${epsg}`;
  if (name && code) return `${name} (${code})`;
  return name ?? code;
}
