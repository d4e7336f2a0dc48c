/**
 * `Range: bytes=...` of one range (RFC 9110 §14): `a-b`, `a-` or `-n`. Several ranges are
 * answered with the whole file (a server may ignore Range), so no multipart bodies.
 */
export type RangeAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'part'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Not one byte range (another unit, a list, garbage): ignored, as RFC 9110 allows.
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return { kind: 'whole' }; // invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

/** Ranges one request may list before the header is ignored (RFC 9110 lets a server ignore many). */
export const MAX_RANGES = 256;

export type RangesAnswer =
  | { readonly kind: 'whole' }
  | { readonly kind: 'parts'; readonly parts: readonly { start: number; end: number }[] }
  | { readonly kind: 'unsatisfiable' };

/**
 * `Range: bytes=...` with one or several ranges (`a-b`, `a-`, `-n`, comma-separated), for
 * files served with `multipart/byteranges`. The satisfiable ones, overlapping or touching
 * neighbours merged; none satisfiable → unsatisfiable; a malformed
 * header, another unit or more than `MAX_RANGES` → the whole file. Parts come in file order
 * (a client asking out of order gets them sorted, each with its Content-Range).
 */
export function parseRanges(header: string | undefined, size: number): RangesAnswer {
  if (header === undefined) return { kind: 'whole' };
  const m = /^bytes=(.+)$/.exec(header.trim());
  if (!m) return { kind: 'whole' };
  const specs = m[1]!.split(',').map((s) => s.trim());
  if (specs.length > MAX_RANGES) return { kind: 'whole' };
  const parts: { start: number; end: number }[] = [];
  for (const spec of specs) {
    const r = /^(\d*)-(\d*)$/.exec(spec);
    if (!r || (r[1] === '' && r[2] === '')) return { kind: 'whole' };
    if (r[1] === '') {
      const n = Number(r[2]);
      if (n > 0 && size > 0) parts.push({ start: Math.max(0, size - n), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    if (r[2] !== '' && Number(r[2]) < start) return { kind: 'whole' }; // invalid: ignored
    if (start >= size) continue;
    parts.push({ start, end: r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1) });
  }
  if (parts.length === 0) return { kind: 'unsatisfiable' };
  // Overlapping or adjacent ranges coalesced (RFC 9110 §14.2), in file order.
  parts.sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (last && p.start <= last.end + 1) last.end = Math.max(last.end, p.end);
    else merged.push({ ...p });
  }
  return { kind: 'parts', parts: merged };
}
