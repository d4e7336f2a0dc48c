/**
 * `eo package import <file> [--dry-run]`: a field package another laptop wrote, merged into this
 * mirror (README.md, "Field packages"): checked first (whole, ours, within the limits, from this
 * mirror's service and organisation), then merged all or nothing: records newer by
 * `updated_at` win, nothing is duplicated, nothing of this laptop's is lost. `--dry-run`
 * describes the package without merging it. `--url` / `EO_URL` names this laptop's service
 * for the check when the mirror has not recorded one yet.
 */
import { OriginMismatchError } from '../mirror/origin';
import { makeRecordPacking } from '../mirror/packing';
import { makeFieldPackages, PackageError } from '../field-package/index';
import { SyncBusyError } from '../pull/errors';
import { makePackageRasters } from '../offline/package-rasters';
import { CliFailure, type CommandSpec } from './context';
import { EXIT, resolvePath } from './io';
import { writeJson, writeTable } from './output';

const mb = (n: number) => `${(n / 1_000_000).toFixed(1)} MB`;

export const packageImportCommand: CommandSpec = {
  words: ['package', 'import'],
  operands: ['file'],
  usage: 'eo package import <file> [--dry-run] [--format json|table]',
  options: ['dry-run', 'format'],
  async run(ctx) {
    const format = ctx.format();
    const file = resolvePath(ctx.io, ctx.operands[0]!);
    const db = ctx.database({ create: true });
    const packages = makeFieldPackages({
      sqlite: db.sqlite,
      file: db.file,
      pixels: makePackageRasters(db.sqlite, db.file),
    });
    try {
      if (ctx.values['dry-run']) {
        const summary = packages.inspect(file);
        if (format === 'json') writeJson(ctx.io.stdout, summary);
        else {
          const m = summary.manifest;
          ctx.io.stdout.write(
            `${m.label}: ${summary.records} records, ${summary.pictures} pictures, ${mb(summary.bytes)}; made ${m.createdAt} from ${m.origin.service ?? 'an unknown service'} (organisation ${m.origin.organisation ?? 'unknown'}); dry run: nothing merged\n`,
          );
        }
        return EXIT.ok;
      }
      const report = await packages.import(file, {
        signal: ctx.io.signal,
        service: ctx.values.url ?? ctx.io.env.EO_URL ?? null,
      });
      // Its catalog records were stored as text: packed now, as after `eo sync`.
      await makeRecordPacking(db.sqlite, () => false).pack({ signal: ctx.io.signal });
      if (format === 'json') writeJson(ctx.io.stdout, report);
      else {
        writeTable(
          ctx.io.stdout,
          ['RECORDS', 'ADDED', 'UPDATED', 'KEPT'],
          [
            ...Object.entries(report.records).map(([r, c]) => [r, c.added, c.updated, c.kept]),
            ['pictures', report.pictures.added, report.pictures.updated, report.pictures.kept],
          ],
        );
        ctx.io.stdout.write(`merged ${report.label} (package ${report.packageId})\n`);
        if (report.rasters.unkept > 0)
          ctx.io.stderr.write(
            `eo package import: ${report.rasters.unkept} offline rasters not kept: this mirror keeps none\n`,
          );
      }
      return EXIT.ok;
    } catch (e) {
      if (e instanceof PackageError || e instanceof OriginMismatchError)
        throw new CliFailure(
          `${file}: ${e.message}${e instanceof PackageError ? ' Nothing was changed.' : ''}`,
        );
      if (e instanceof SyncBusyError) throw new CliFailure(e.message);
      throw e;
    }
  },
};
