/**
 * Where a delivery's manifest goes. `cloud_info.path` is a relative folder inside the
 * organisation's delivery area; `..` segments, absolute paths (`/x`, `\x`, `C:\x`) and NUL
 * are refused at request time (400), and the worker checks again on disk (symlinks) before
 * writing.
 *
 *   file:        <deliveryRoot>/<org_id>/<path segments>/<delivery_id>.json
 *   target_path: <path segments joined by "/">/<delivery_id>.json   (the logical location)
 */
import fs from 'node:fs';
import path from 'node:path';

/** Why a cloud path is unsafe, or null when it is fine. */
export function unsafePathReason(p: string): string | null {
  if (p.includes('\0')) return 'path must not contain NUL characters';
  if (/^[/\\]/.test(p) || /^[A-Za-z]:/.test(p)) return 'path must be relative, not absolute';
  if (segments(p).includes('..')) return 'path must not contain ".." segments';
  return null;
}

/** The folder names of a cloud path (empty and `.` segments dropped). */
export function segments(p: string): string[] {
  return p.split(/[/\\]/).filter((s) => s !== '' && s !== '.');
}

export function targetPath(cloudPath: string, deliveryId: string): string {
  return [...segments(cloudPath), `${deliveryId}.json`].join('/');
}

export function orgRoot(deliveryRoot: string, orgId: string): string {
  return path.join(path.resolve(deliveryRoot), encodeURIComponent(orgId));
}

const inside = (child: string, parent: string) =>
  child === parent || child.startsWith(parent + path.sep);

/**
 * Writes the manifest (atomically: temp file then rename) and returns its absolute path, or
 * throws `UnsafePathError` when the folder resolves outside the organisation's area.
 */
export function writeManifest(
  deliveryRoot: string,
  orgId: string,
  cloudPath: string,
  deliveryId: string,
  manifest: unknown,
): string {
  const reason = unsafePathReason(cloudPath);
  if (reason) throw new UnsafePathError(reason);
  const root = orgRoot(deliveryRoot, orgId);
  const folder = path.join(root, ...segments(cloudPath));
  if (!inside(folder, root)) throw new UnsafePathError('path leaves the delivery area');
  fs.mkdirSync(folder, { recursive: true });
  // A symlink on the way may point elsewhere: judge the real location.
  if (!inside(fs.realpathSync(folder), fs.realpathSync(root))) {
    throw new UnsafePathError('path resolves outside the delivery area (symbolic link)');
  }
  const file = path.join(folder, `${deliveryId}.json`);
  const temp = `${file}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(manifest, null, 2));
  fs.renameSync(temp, file);
  return file;
}

export class UnsafePathError extends Error {
  constructor(reason: string) {
    super(`unsafe path: ${reason}`);
    this.name = 'UnsafePathError';
  }
}
