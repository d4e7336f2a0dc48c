/**
 * `cloud_delivery.path` (orders, 4.8) and `cloud_info.path` (deliveries, 4.11): one rule for
 * both (the spec says only "path string"; ours, written in packages/reference-service/docs/choices-orders.md).
 *
 * A path is a folder inside the delivery target: optionally a cloud storage URL prefix
 * (`s3://`, `gs://`, `az://`), then folder names separated by `/` (empty names from `//` or a
 * trailing `/` are ignored). Refused, each with its own message:
 * - any other scheme (`file:///etc`, `http://x`) and absolute paths (`/x`);
 * - `.` and `..` names, names starting with `~` (`~/x`);
 * - control characters (U+0000..U+001F, U+007F..U+009F) and `\ : % * ? " < > |` in a name
 *   (`%2e%2e` would read as `..` once decoded; `\` and `:` are separators on other systems);
 * - a name over `LIMITS.maxPathSegmentBytes` UTF-8 bytes (file systems refuse longer names, and
 *   a delivery would fail long after its 201), a path over `LIMITS.maxCloudPathChars`, or no name.
 */
import { z } from 'zod';
import { LIMITS } from '../limits';

export const CLOUD_PATH_SCHEMES = ['s3', 's3a', 'gs', 'az', 'abfs'] as const;

export interface CloudPath {
  /** The URL scheme given (`s3`), or null for a plain relative path. */
  readonly scheme: string | null;
  /** The folder names, in order. */
  readonly segments: readonly string[];
}

export type CloudPathResult = { ok: true; value: CloudPath } | { ok: false; message: string };

/** UTF-8 length of a string (a lone surrogate counts as the 3 bytes of its replacement). */
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** C0 controls, DEL and C1 controls. */
function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}
const FORBIDDEN = /[\\:%*?"<>|]/;

function segmentProblem(name: string): string | null {
  if (name === '.' || name === '..') return `"${name}" names are not allowed`;
  if (name.startsWith('~')) return 'a folder name must not start with "~"';
  if (hasControl(name)) return 'control characters are not allowed';
  const bad = FORBIDDEN.exec(name);
  if (bad) return `the character ${JSON.stringify(bad[0])} is not allowed in a folder name`;
  const bytes = utf8Length(name);
  if (bytes > LIMITS.maxPathSegmentBytes) {
    return `a folder name is at most ${LIMITS.maxPathSegmentBytes} bytes (UTF-8); one has ${bytes}`;
  }
  return null;
}

export function parseCloudPath(p: string): CloudPathResult {
  if (p.length > LIMITS.maxCloudPathChars) {
    return { ok: false, message: `path is at most ${LIMITS.maxCloudPathChars} characters` };
  }
  let rest = p;
  let scheme: string | null = null;
  const url = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(p);
  if (url) {
    scheme = url[1]!.toLowerCase();
    if (
      !(CLOUD_PATH_SCHEMES as readonly string[]).includes(scheme) ||
      !p.startsWith('//', url[0].length)
    ) {
      return {
        ok: false,
        message: `path is a relative folder or a ${CLOUD_PATH_SCHEMES.map((s) => `${s}://`).join(', ')} URL, not ${JSON.stringify(p.slice(0, url[0].length + 2))}`,
      };
    }
    rest = p.slice(url[0].length + 2);
  } else if (rest.startsWith('/')) {
    return { ok: false, message: 'path must be relative, not absolute' };
  }
  const segments = rest.split('/').filter((s) => s !== '');
  if (segments.length === 0) return { ok: false, message: 'path names no folder' };
  for (const s of segments) {
    const problem = segmentProblem(s);
    if (problem) return { ok: false, message: `path: ${problem}` };
  }
  return { ok: true, value: { scheme, segments } };
}

/** The path field of a cloud delivery target (see the rules above). */
export const CloudPathString = z
  .string()
  .min(1, 'path must not be empty')
  .superRefine((p, ctx) => {
    const r = parseCloudPath(p);
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
  });
