/**
 * Where a delivery's manifest goes. `cloud_info.path` is checked by the domain's one rule for
 * delivery paths (`parseCloudPath`: relative folders or an s3:// / gs:// / az:// URL, no `..`,
 * no control characters, names of at most 255 bytes) at request time (400); the worker checks
 * again, and on disk (symlinks), before writing.
 *
 *   file:        <deliveryRoot>/<org folder>/[<scheme>/]<folder names>/<delivery_id>.json
 *   target_path: [<scheme>://]<folder names joined by "/">/<delivery_id>.json (the logical location)
 *
 * The org folder is the organisation id percent-encoded, with a leading `.` encoded too, so no
 * id (`..`, `.`, `a/b`) can name a folder outside the delivery root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseCloudPath } from '@eo/domain';

/** Why a cloud path is refused, or null when it is fine. */
export function unsafePathReason(p: string): string | null {
  const r = parseCloudPath(p);
  return r.ok ? null : r.message;
}

/** The folder names a cloud path makes on disk (the scheme, if any, first). */
export function segments(p: string): string[] {
  const r = parseCloudPath(p);
  if (!r.ok) throw new UnsafePathError(r.message);
  return r.value.scheme === null ? [...r.value.segments] : [r.value.scheme, ...r.value.segments];
}

export function targetPath(cloudPath: string, deliveryId: string): string {
  const r = parseCloudPath(cloudPath);
  if (!r.ok) throw new UnsafePathError(r.message);
  const file = [...r.value.segments, `${deliveryId}.json`].join('/');
  return r.value.scheme === null ? file : `${r.value.scheme}://${file}`;
}

/** An organisation's folder name: never `.`, `..` or anything with a separator. */
export function orgFolder(orgId: string): string {
  return encodeURIComponent(orgId).replace(/^\./, '%2E');
}

export function orgRoot(deliveryRoot: string, orgId: string): string {
  return path.join(path.resolve(deliveryRoot), orgFolder(orgId));
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
  const root = orgRoot(deliveryRoot, orgId);
  if (!inside(root, path.resolve(deliveryRoot)) || root === path.resolve(deliveryRoot)) {
    throw new UnsafePathError('the organisation id names no folder inside the delivery root');
  }
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
