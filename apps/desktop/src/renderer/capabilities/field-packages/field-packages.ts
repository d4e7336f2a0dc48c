/**
 * Field packages from the page: "Share for the field…" plans a package (what it holds, about
 * how large) and writes it (`packages.plan`, `packages.share`: the backend writes it from the
 * mirror; Electron's main saves it through a dialog, browser mode downloads it); "Open a field
 * package…" sends a picked `.gpkg` to `packages.open`, merged into the mirror there. Outcomes
 * are said in words; the package's bytes are never kept in a store.
 */
import type { FieldPackageSelectionInput } from '@eo/domain';
import {
  MAX_APP_PACKAGE_BYTES,
  type PackageOpened,
  type PackagePlanView,
} from '../../../shared/contract';
import { formatBytes } from '../../format/units';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { downloadFile } from '../../ui/download-file';
import { base64Of } from '../../stores/file-preview-store';

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 AOIs, 120 catalog records, 40 pictures; about 2.1 MB (5 pictures left out to fit)". */
export function describePlan(plan: PackagePlanView): string {
  const r = plan.records;
  const parts = [
    plural(r.aois ?? 0, 'AOI'),
    plural(r.catalogs ?? 0, 'catalog record'),
    plural((r.orders ?? 0) + (r.orderItems ?? 0), 'order record'),
    plural(plan.pictures.thumbnail + plan.pictures.overview + plan.pictures.indexMap, 'picture'),
  ];
  const left = plan.leftOut.pictures
    ? ` (${plural(plan.leftOut.pictures, 'picture')} left out to fit)`
    : '';
  return `${parts.join(', ')}; about ${formatBytes(plan.estimatedBytes)}${left}`;
}

export async function planPackage(
  selection: FieldPackageSelectionInput,
): Promise<{ ok: true; plan: PackagePlanView } | { ok: false; message: string }> {
  try {
    return { ok: true, plan: await useBridge().call('packages.plan', { selection }) };
  } catch (err) {
    return { ok: false, message: `Cannot plan the package: ${readableError(err).message}` };
  }
}

export async function sharePackage(selection: FieldPackageSelectionInput): Promise<Outcome> {
  try {
    const file = await useBridge().call('packages.share', { selection });
    if (file.savedTo === null) return { ok: true, message: 'Not saved: the dialog was cancelled.' };
    if (file.savedTo !== undefined)
      return { ok: true, message: `Saved the field package to ${file.savedTo}.` };
    downloadFile(file);
    return { ok: true, message: `Downloaded ${file.fileName} (${formatBytes(file.bytes)}).` };
  } catch (err) {
    return { ok: false, message: `Not shared: ${readableError(err).message}` };
  }
}

/** "Added 3, updated 1, kept 12 of this laptop's (newer or the same)". */
export function describeOpened(report: PackageOpened): string {
  let added = 0;
  let updated = 0;
  let kept = 0;
  for (const c of Object.values(report.records)) {
    added += c.added;
    updated += c.updated;
    kept += c.kept;
  }
  return `${report.label}: ${plural(added, 'record')} added, ${updated} updated, ${kept} kept (this laptop's were as new or newer); ${plural(report.pictures.added, 'picture')} added.`;
}

export async function openPackage(file: File): Promise<Outcome> {
  if (!file.name.toLowerCase().endsWith('.gpkg'))
    return { ok: false, message: `${file.name}: a field package is a .gpkg file.` };
  if (file.size > MAX_APP_PACKAGE_BYTES)
    return {
      ok: false,
      message: `${file.name}: ${formatBytes(file.size)}; the app opens packages up to ${formatBytes(MAX_APP_PACKAGE_BYTES)} (larger ones: eo package import).`,
    };
  try {
    const base64 = base64Of(new Uint8Array(await file.arrayBuffer()));
    const report = await useBridge().call('packages.open', { name: file.name, base64 });
    return { ok: true, message: describeOpened(report) };
  } catch (err) {
    return { ok: false, message: `Not opened: ${readableError(err).message}` };
  }
}
