/**
 * `eo package export (--area FILE | --aoi ID | --search NAME) --out FILE [--imagery
 * off|thumbnails|overviews] [--pixels] [--budget MB] [--dry-run] [--rebuild]`: a field package
 * of the mirror (README.md, "Field packages"), offline. What it will hold and its size are
 * printed first (`--dry-run` stops there). It is built beside the database
 * (`<db>.packages/`), then copied to FILE: onto another device (a USB stick) block by block, so
 * a copy cut short resumes when the same command runs again (the built package is kept until
 * its copy is whole; `--rebuild` builds it anew); on the same device it is moved.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FieldPackageOptions, type FieldPackageSelectionInput } from '@eo/domain';
import { FormatError, importFile, mergeAreas } from '@eo/formats';
import { makePrivateDir } from '../db/private-files';
import {
  copyResumable,
  makeFieldPackages,
  PackageTooLargeError,
  SelectionError,
  type PackagePlan,
} from '../field-package/index';
import { intFlag, UsageError } from './args';
import { makePackageRasters } from '../offline/package-rasters';
import { CliFailure, type CommandContext, type CommandSpec } from './context';
import { EXIT, resolvePath } from './io';
import { writeJson, writeTable } from './output';

const MB = 1_000_000;
const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

/** The area of a field file: its features' areas side by side, named after the file. */
async function areaSelection(
  ctx: CommandContext,
  given: string,
): Promise<FieldPackageSelectionInput> {
  const file = resolvePath(ctx.io, given);
  let preview;
  try {
    preview = await importFile(file, await fs.promises.readFile(file));
  } catch (e) {
    if (e instanceof FormatError) throw new CliFailure(`--area: ${e.message}`);
    throw new CliFailure(`--area: cannot read ${file}: ${(e as Error).message}`);
  }
  const areas = preview.features.flatMap((f) => (f.area ? [f.area] : []));
  if (areas.length === 0) throw new CliFailure(`--area: ${file} holds no area`);
  const name = path.basename(file).replace(/\.[^.]*$/, '');
  return { kind: 'area', area: mergeAreas(areas), name };
}

async function optionsOf(ctx: CommandContext): Promise<FieldPackageOptions> {
  const { values } = ctx;
  const given = (['area', 'aoi', 'search'] as const).filter((k) => values[k] !== undefined);
  if (given.length !== 1)
    throw new UsageError('give one of --area FILE, --aoi ID or --search NAME');
  const selection: FieldPackageSelectionInput =
    values.area !== undefined
      ? await areaSelection(ctx, values.area)
      : values.aoi !== undefined
        ? { kind: 'aoi', aoiId: values.aoi }
        : { kind: 'archiveSearch', searchId: values.search! };
  const parsed = FieldPackageOptions.safeParse({
    selection,
    imagery: values.imagery ?? 'thumbnails',
    pixels: values.pixels === true,
    ...(values.budget !== undefined
      ? { budgetBytes: intFlag(values.budget, 'budget', 1) * MB }
      : {}),
  });
  if (!parsed.success)
    throw new UsageError(
      'invalid package options',
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  return parsed.data;
}

function writePlan(ctx: CommandContext, plan: PackagePlan): void {
  const out = ctx.io.stdout;
  const rows = Object.entries(plan.records).map(([resource, n]) => [resource, n]);
  out.write(`${plan.label}: about ${mb(plan.estimatedBytes)}`);
  out.write(plan.budgetBytes === null ? '\n' : ` (budget ${mb(plan.budgetBytes)})\n`);
  writeTable(out, ['RECORDS', 'COUNT'], rows);
  const p = plan.pictures;
  out.write(
    `pictures: ${p.thumbnail} thumbnails, ${p.overview} overviews, ${p.indexMap} index maps (${mb(p.bytes)})\n`,
  );
  if (plan.leftOut.pictures > 0)
    out.write(
      `left out by the budget: ${plan.leftOut.pictures} pictures (${mb(plan.leftOut.bytes)})\n`,
    );
  if (plan.pixels.asked)
    out.write(
      plan.pixels.available
        ? `offline rasters: ${plan.pixels.count} (${mb(plan.pixels.bytes)})\n`
        : 'offline rasters: this mirror keeps none (download them first)\n',
    );
}

/** The built package kept for a destination, and what it was built from. */
interface Staged {
  readonly out: string;
  readonly options: string;
  readonly sha256: string;
  readonly bytes: number;
}

function stagingOf(dbFile: string, out: string) {
  const dir = `${path.resolve(dbFile)}.packages`;
  const key = crypto.createHash('sha256').update(out).digest('hex').slice(0, 32);
  return { dir, file: path.join(dir, `${key}.gpkg`), note: path.join(dir, `${key}.json`) };
}

function readStaged(note: string): Staged | null {
  try {
    return JSON.parse(fs.readFileSync(note, 'utf8')) as Staged;
  } catch {
    return null;
  }
}

const sameDevice = (a: string, b: string) => {
  try {
    return fs.statSync(a).dev === fs.statSync(b).dev;
  } catch {
    return false;
  }
};

export const packageExportCommand: CommandSpec = {
  words: ['package', 'export'],
  operands: [],
  usage:
    'eo package export (--area FILE | --aoi ID | --search NAME) --out FILE [--imagery off|thumbnails|overviews] [--pixels] [--budget MB] [--dry-run] [--rebuild] [--format json|table]',
  options: [
    'area',
    'aoi',
    'search',
    'out',
    'imagery',
    'pixels',
    'budget',
    'dry-run',
    'rebuild',
    'format',
  ],
  async run(ctx) {
    const format = ctx.format();
    const dryRun = ctx.values['dry-run'] === true;
    if (!dryRun && (ctx.values.out === undefined || ctx.values.out === '-'))
      throw new UsageError('a package is a file: give --out FILE');
    const options = await optionsOf(ctx);
    const db = ctx.database({ create: false });
    const packages = makeFieldPackages({
      sqlite: db.sqlite,
      file: db.file,
      pixels: makePackageRasters(db.sqlite, db.file),
    });
    let plan: PackagePlan;
    try {
      plan = packages.plan(options);
    } catch (e) {
      if (e instanceof SelectionError || e instanceof PackageTooLargeError)
        throw new CliFailure(e.message);
      throw e;
    }
    if (format === 'table') writePlan(ctx, plan);
    if (dryRun) {
      if (format === 'json') writeJson(ctx.io.stdout, { plan });
      return EXIT.ok;
    }
    const out = resolvePath(ctx.io, ctx.values.out!);
    const staging = stagingOf(db.file, out);
    makePrivateDir(staging.dir);
    const key = JSON.stringify(options);
    let staged = readStaged(staging.note);
    if (
      staged?.out !== out ||
      staged.options !== key ||
      ctx.values.rebuild ||
      !fs.existsSync(staging.file)
    ) {
      for (const f of [staging.file, staging.note]) fs.rmSync(f, { force: true });
      const written = packages.write(options, staging.file);
      staged = { out, options: key, sha256: written.sha256, bytes: written.bytes };
      fs.writeFileSync(staging.note, JSON.stringify(staged));
    } else if (format === 'table')
      ctx.io.stdout.write(
        `the package built for ${out} earlier is copied (--rebuild builds it anew)\n`,
      );
    let resumedAt = 0;
    if (sameDevice(staging.dir, path.dirname(out))) fs.renameSync(staging.file, out);
    else {
      try {
        const copied = await copyResumable(staging.file, out, {
          sha256: staged.sha256,
          signal: ctx.io.signal,
          onProgress: (p) => ctx.io.stderr.write(`copying: ${mb(p.copied)} of ${mb(p.total)}\n`),
        });
        resumedAt = copied.resumedAt;
      } catch (e) {
        throw new CliFailure(
          `the copy to ${out} stopped (${(e as Error).message}): run the same command again to resume it`,
        );
      }
      fs.rmSync(staging.file, { force: true });
    }
    fs.rmSync(staging.note, { force: true });
    const result = { file: out, bytes: staged.bytes, sha256: staged.sha256, resumedAt };
    if (format === 'json') writeJson(ctx.io.stdout, { plan, written: result });
    else
      ctx.io.stdout.write(
        `written: ${out} (${mb(staged.bytes)}, sha256 ${staged.sha256.slice(0, 16)}…)${resumedAt > 0 ? `, resumed at ${mb(resumedAt)}` : ''}\n`,
      );
    return EXIT.ok;
  },
};
