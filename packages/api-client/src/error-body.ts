/**
 * Reading the error body of any service, so the user sees the service's own words and field
 * paths. Shapes met in practice:
 *
 * - `{ error: { code, message, details } }` with `details` absent, null, a list (ours), an object
 *   (the real service: field -> message, or one detail), or a string;
 * - flat `{ code, message, details? }`, OAuth-like `{ error: "text", error_description }`,
 *   RFC 7807 `{ title, detail }`, FastAPI `{ detail: "text" | [{ loc, msg, type }] }`,
 *   `{ errors: [...] | {...} }`;
 * - plain text (a proxy's "Bad Gateway", an HTML page: its title) or nothing.
 *
 * `details` are normalised to `{ path, message }` where the body allows (other keys of a detail
 * kept); `rawDetails` is what the service sent, as it sent it.
 */
import type { ErrorDetail } from '@eo/domain';

export interface ReadErrorBody {
  code?: string;
  message?: string;
  details?: ErrorDetail[];
  /** The body's details as received (null included), when it had any. */
  rawDetails?: unknown;
}

/** Most details kept from one body; the last says how many more there were. */
const MAX_DETAILS = 100;
const MAX_TEXT = 500;
/** How deep nested field objects are walked (`{ order_items: { 0: { name: "..." } } }`). */
const MAX_DEPTH = 4;
/** Where FastAPI-like `loc` lists start; dropped so the path is the field's. */
const LOC_ROOTS = new Set(['body', 'query', 'path', 'header']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function firstString(...vs: unknown[]): string | undefined {
  for (const v of vs) if (typeof v === 'string' && v.trim() !== '') return v.trim();
  return undefined;
}

function join(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The path of one detail object: `path`, `field`, `pointer`, or a `loc` list. */
function pathOf(d: Record<string, unknown>): string | undefined {
  if (typeof d.path === 'string') return d.path;
  if (Array.isArray(d.path) || Array.isArray(d.loc)) {
    const parts = ((Array.isArray(d.path) ? d.path : d.loc) as unknown[]).map(String);
    if (parts.length > 1 && LOC_ROOTS.has(parts[0]!)) parts.shift();
    return parts.join('.');
  }
  if (typeof d.field === 'string') return d.field;
  if (typeof d.pointer === 'string') return d.pointer.replace(/^\//, '').replace(/\//g, '.');
  return undefined;
}

function messageOf(d: Record<string, unknown>): string | undefined {
  return firstString(d.message, d.msg, d.reason, d.error, d.detail, d.description);
}

/** One detail object, when it looks like one (a path or a message of its own). */
function asDetail(d: Record<string, unknown>, prefix: string): ErrorDetail | undefined {
  const path = pathOf(d);
  const message = messageOf(d);
  if (message === undefined) return undefined;
  return { ...d, path: join(prefix, path ?? ''), message };
}

function collect(raw: unknown, prefix: string, depth: number, out: ErrorDetail[]): void {
  if (raw === null || raw === undefined) return;
  if (typeof raw !== 'object') {
    out.push({ path: prefix, message: String(raw) });
    return;
  }
  if (Array.isArray(raw)) {
    for (const item of raw) {
      const d = isRecord(item) ? asDetail(item, prefix) : undefined;
      if (d) out.push(d);
      else if (typeof item === 'string') out.push({ path: prefix, message: item });
      else if (isRecord(item) && depth < MAX_DEPTH) collect(item, prefix, depth + 1, out);
      else out.push({ path: prefix, message: text(item) });
    }
    return;
  }
  // An object: one detail (`{ field, message }`), or field -> message(s) / nested fields.
  const obj = raw as Record<string, unknown>;
  if (pathOf(obj) !== undefined) {
    const d = asDetail(obj, prefix);
    if (d) {
      out.push(d);
      return;
    }
  }
  for (const [key, v] of Object.entries(obj)) {
    const path = join(prefix, key);
    if (typeof v === 'string') out.push({ path, message: v });
    else if ((Array.isArray(v) || isRecord(v)) && depth < MAX_DEPTH)
      collect(v, path, depth + 1, out);
    else out.push({ path, message: text(v) });
  }
}

/** `details` of any shape as `{ path, message }` entries; undefined when there are none. */
export function normaliseDetails(raw: unknown): ErrorDetail[] | undefined {
  const out: ErrorDetail[] = [];
  collect(raw, '', 0, out);
  if (out.length === 0) return undefined;
  if (out.length <= MAX_DETAILS) return out;
  const kept = out.slice(0, MAX_DETAILS);
  kept.push({ path: '', message: `and ${out.length - MAX_DETAILS} more` });
  return kept;
}

/** A plain-text body's message: an HTML page's title (or its text), else the text, shortened. */
function textMessage(body: string): string | undefined {
  let t = body.trim();
  if (t.startsWith('<')) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1];
    t = (title ?? t.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  }
  return t ? t.slice(0, MAX_TEXT) : undefined;
}

export function readErrorBody(body: unknown): ReadErrorBody {
  if (typeof body === 'string') {
    const message = textMessage(body);
    return message ? { message } : {};
  }
  if (!isRecord(body)) return {};
  // The envelope when there is one (`{ error: {...} }`), else the body itself (flat shapes).
  const e = isRecord(body.error) ? body.error : body;
  const out: ReadErrorBody = {};
  const code = e.code ?? (e === body ? undefined : body.code);
  if (typeof code === 'string' && code !== '') out.code = code;
  else if (typeof code === 'number') out.code = String(code);
  const message = firstString(
    e.message,
    typeof e.detail === 'string' ? e.detail : undefined,
    e.error_description,
    typeof e.error === 'string' ? e.error : undefined,
    e.title,
    e.msg,
  );
  if (message) out.message = message.slice(0, MAX_TEXT);
  const key = ['details', 'errors', 'detail'].find(
    (k) => k in e && !(k === 'detail' && typeof e.detail === 'string'),
  );
  if (key !== undefined) {
    out.rawDetails = e[key];
    const details = normaliseDetails(e[key]);
    if (details) out.details = details;
  }
  return out;
}

/**
 * The line an error message ends with: the service's message, then the details it does not
 * already say (ours repeats the first detail in its message; the real service's doesn't).
 */
export function errorReason(read: ReadErrorBody, fallback: string): string {
  const base = read.message ?? '';
  const unsaid = (read.details ?? []).filter((d) => !base.includes(d.message));
  const shown = unsaid.slice(0, 3).map((d) => (d.path ? `${d.path}: ${d.message}` : d.message));
  const more = unsaid.length > 3 ? ` (and ${unsaid.length - 3} more)` : '';
  const extra = shown.length > 0 ? shown.join('; ') + more : '';
  if (!base) return extra || fallback;
  return extra ? `${base} (${extra})` : base;
}
