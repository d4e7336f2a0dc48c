/**
 * GDAL's metadata (the GDAL_METADATA tag, 42112): dataset items, and per band its description
 * (the band name), scale, offset and items. Read with a linear scan of `<Item>` elements (no
 * XML parser, no entity expansion beyond the five predefined and numeric references), and
 * written the way GDAL writes it: GDAL escapes a value for XML, then the XML writer escapes
 * it again (`x&y` is stored `x&amp;amp;y`), so values are escaped and unescaped twice.
 */
export interface BandMetadata {
  /** GDAL's band description: our band names (`B04`, `NIR`). */
  readonly description?: string;
  /** Physical value = raw * scale + offset (surface reflectance: 0.0001 and 0). */
  readonly scale?: number;
  readonly offset?: number;
  /** Other per-band items. */
  readonly items?: Readonly<Record<string, string>>;
}

export interface RasterMetadata {
  /** Dataset items (default domain). */
  readonly dataset: Readonly<Record<string, string>>;
  /** One per band, in band order (sparse bands have empty objects). */
  readonly bands: readonly BandMetadata[];
}

const ITEM = /<Item\b([^>]*)>([^<]*)<\/Item>/g;
const ATTR = /([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g;

function unescapeXml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g, (_m, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    const cp = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD';
  });
}

export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!,
  );
}

/** A value as GDAL stores it (escaped twice). */
const escapeValue = (s: string): string => escapeXml(escapeXml(s));
const unescapeValue = (s: string): string => unescapeXml(unescapeXml(s));

/** Parses GDAL_METADATA text for a raster of `bandCount` bands. */
export function parseGdalMetadata(xml: string, bandCount: number): RasterMetadata {
  const dataset: Record<string, string> = {};
  const bands: {
    description?: string;
    scale?: number;
    offset?: number;
    items?: Record<string, string>;
  }[] = Array.from({ length: bandCount }, () => ({}));
  for (const m of xml.matchAll(ITEM)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1]!.matchAll(ATTR)) attrs[a[1]!] = unescapeXml(a[2]!);
    const name = attrs.name;
    if (name === undefined || (attrs.domain !== undefined && attrs.domain !== '')) continue;
    const value = unescapeValue(m[2]!);
    if (attrs.sample === undefined) {
      dataset[name] = value;
      continue;
    }
    const band = bands[Number(attrs.sample)];
    if (!band || !/^\d+$/.test(attrs.sample)) continue;
    const role = attrs.role;
    if (role === 'description') band.description = value;
    else if (role === 'scale' && Number.isFinite(Number(value))) band.scale = Number(value);
    else if (role === 'offset' && Number.isFinite(Number(value))) band.offset = Number(value);
    else if (role === undefined) (band.items ??= {})[name] = value;
  }
  return { dataset, bands };
}

/** GDAL_METADATA text for dataset items and per-band metadata (null when there is nothing). */
export function gdalMetadataXml(md: RasterMetadata): string | null {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(md.dataset))
    lines.push(`  <Item name="${escapeXml(k)}">${escapeValue(v)}</Item>`);
  md.bands.forEach((b, i) => {
    for (const [k, v] of Object.entries(b.items ?? {}))
      lines.push(`  <Item name="${escapeXml(k)}" sample="${i}">${escapeValue(v)}</Item>`);
    if (b.offset !== undefined)
      lines.push(`  <Item name="OFFSET" sample="${i}" role="offset">${b.offset}</Item>`);
    if (b.scale !== undefined)
      lines.push(`  <Item name="SCALE" sample="${i}" role="scale">${b.scale}</Item>`);
    if (b.description !== undefined)
      lines.push(
        `  <Item name="DESCRIPTION" sample="${i}" role="description">${escapeValue(b.description)}</Item>`,
      );
  });
  return lines.length === 0 ? null : `<GDALMetadata>\n${lines.join('\n')}\n</GDALMetadata>\n`;
}
