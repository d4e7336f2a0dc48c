/**
 * main's save of an export (save-export.ts) with the dialog and the file system as stand-ins:
 * other methods and failed exports pass as they are; a failed write is said with the path.
 * (main-wiring.spec.ts runs it wired, with `electron` mocked and the real backend.)
 */
import { describe, expect, it, vi } from 'vitest';
import type { CallResult, ExportedFile } from '../../shared/contract';
import { withExportSaving, type SaveDeps } from '../save-export';

const file: ExportedFile = {
  fileName: 'eo-aois-20260525-1412.shp.zip',
  mediaType: 'application/zip',
  features: 2,
  bytes: 3,
  base64: Buffer.from('zip').toString('base64'),
};

function deps(over: Partial<SaveDeps> = {}) {
  return {
    showSaveDialog: vi.fn(async () => ({ canceled: false, filePath: '/home/f/aois.zip' })),
    writeFile: vi.fn(async () => undefined),
    defaultDir: () => '/home/f/Downloads',
    ...over,
  };
}

const answer = (value: unknown): (() => Promise<CallResult<unknown>>) =>
  vi.fn(async () => ({ ok: true as const, value }));

describe('withExportSaving', () => {
  it('asks where, in the Downloads folder, with the format as the filter, and writes the bytes', async () => {
    const d = deps();
    const r = await withExportSaving(answer(file), d)('files.export', {});
    expect(d.showSaveDialog).toHaveBeenCalledWith({
      title: 'Save the export',
      defaultPath: '/home/f/Downloads/eo-aois-20260525-1412.shp.zip',
      filters: [{ name: 'Zipped Shapefile', extensions: ['zip'] }],
    });
    expect(d.writeFile).toHaveBeenCalledWith('/home/f/aois.zip', Buffer.from('zip'));
    expect(r).toEqual({ ok: true, value: { ...file, base64: '', savedTo: '/home/f/aois.zip' } });
  });

  it('saves a field package the same way, under its own title and a GPKG filter', async () => {
    const pkg: ExportedFile = { ...file, fileName: 'eo-package-aoi-maize-20261128.gpkg' };
    const d = deps({
      showSaveDialog: vi.fn(async () => ({ canceled: false, filePath: '/media/usb/site.gpkg' })),
    });
    const r = await withExportSaving(answer(pkg), d)('packages.share', {});
    expect(d.showSaveDialog).toHaveBeenCalledWith({
      title: 'Save the field package',
      defaultPath: '/home/f/Downloads/eo-package-aoi-maize-20261128.gpkg',
      filters: [{ name: 'GPKG', extensions: ['gpkg'] }],
    });
    expect(d.writeFile).toHaveBeenCalledWith('/media/usb/site.gpkg', Buffer.from('zip'));
    expect(r).toEqual({ ok: true, value: { ...pkg, base64: '', savedTo: '/media/usb/site.gpkg' } });
  });

  it('a failed write says where; other methods and refused exports pass untouched', async () => {
    const d = deps({ writeFile: vi.fn(async () => Promise.reject(new Error('EACCES'))) });
    expect(await withExportSaving(answer(file), d)('files.export', {})).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Could not save /home/f/aois.zip: EACCES' },
    });
    const other = deps();
    const page = { items: [] };
    expect(await withExportSaving(answer(page), other)('catalog.search', {})).toEqual({
      ok: true,
      value: page,
    });
    const refused: CallResult<unknown> = {
      ok: false,
      error: { code: 'invalid_argument', message: 'no' },
    };
    expect(await withExportSaving(async () => refused, other)('files.export', {})).toBe(refused);
    expect(other.showSaveDialog).not.toHaveBeenCalled();
  });
});
