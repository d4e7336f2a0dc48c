/**
 * `eo download <scene id or order item id> (--area FILE | --aoi ID | --around LON,LAT [--radius M])
 * [--resolution native|<N>m] [--out site.tif]`: takes a site offline (src/offline/): the
 * download is asked for once, followed, and the tiles the area needs read by ranges into the
 * imagery store, whatever happens to the link or the process (run it again to resume). An AOI
 * asset's own AOI is its area when none is given. `--out` writes a copy of the stored file.
 *
 * `eo status` lists the offline rasters with their bytes (status.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_IMAGERY_BUDGET_BYTES } from '../mirror/imagery';
import { areaAround, areaFromFile, areaOfAoi, AreaError, type SiteArea } from '../offline/area';
import { rasterOf, type OfflineRaster } from '../offline/rasters';
import { findScene, SceneLookupError, type SceneChoice } from '../offline/scene';
import { makeOfflineRasterStore, SCENE_KINDS, type SceneKind } from '../offline/store';
import { OfflineError, takeOffline, type Resolution } from '../offline/take-offline';
import { intFlag, numberFlag, UsageError, type OptionValues } from './args';
import { CliFailure, type CommandContext, type CommandSpec } from './context';
import { EXIT, resolvePath } from './io';
import { isoFromUs, writeJson, writeTable } from './output';
import { offlineProgress, progressMode } from './progress';

const MB = 1_000_000;

/** `native` or `<N>m` (`10m`, `0.5m`). */
export function parseResolution(value: string | undefined): Resolution {
  const v = (value ?? 'native').trim().toLowerCase();
  if (v === 'native') return 'native';
  const m = /^(\d+(?:\.\d+)?)\s*m$/.exec(v);
  const metres = m ? Number(m[1]) : Number.NaN;
  if (!(metres > 0 && metres <= 100_000))
    throw new UsageError(
      `--resolution must be native or metres per pixel such as 10m, got ${JSON.stringify(value)}`,
    );
  return { metres };
}

function parseKind(value: string | undefined): SceneKind | undefined {
  if (value === undefined) return undefined;
  const k = value.trim().replace(/-/g, '_');
  if (!(SCENE_KINDS as readonly string[]).includes(k))
    throw new UsageError(`--kind must be ${SCENE_KINDS.join(', ')}, got ${JSON.stringify(value)}`);
  return k as SceneKind;
}

/** The area flags: exactly one of --area, --aoi, --around (an asset's AOI when none). */
async function siteArea(
  ctx: CommandContext,
  values: OptionValues,
  scene: SceneChoice,
  sqlite: Parameters<typeof areaOfAoi>[0],
): Promise<SiteArea> {
  const given = (['area', 'aoi', 'around'] as const).filter((f) => values[f] !== undefined);
  if (given.length > 1)
    throw new UsageError(`give one area: ${given.map((f) => `--${f}`).join(' or ')}`);
  if (values.radius !== undefined && values.around === undefined)
    throw new UsageError('--radius goes with --around');
  try {
    if (values.area !== undefined) {
      const file = resolvePath(ctx.io, values.area);
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(file);
      } catch (e) {
        throw new UsageError(`--area: cannot read ${file}: ${(e as Error).message}`);
      }
      return await areaFromFile(path.basename(file), bytes);
    }
    if (values.aoi !== undefined) return areaOfAoi(sqlite, values.aoi);
    if (values.around !== undefined) {
      const parts = values.around.split(',').map((s) => s.trim());
      if (parts.length !== 2) throw new UsageError('--around must be LON,LAT');
      const [lon, lat] = parts.map((p) => numberFlag(p, 'around')) as [number, number];
      const radius = values.radius === undefined ? 1000 : intFlag(values.radius, 'radius', 1);
      return areaAround(lon, lat, radius);
    }
    if (scene.kind === 'aoi_asset' && scene.aoiId) return areaOfAoi(sqlite, scene.aoiId);
  } catch (e) {
    if (e instanceof AreaError) throw new UsageError(e.message);
    throw e;
  }
  throw new UsageError('no area: give --area FILE, --aoi ID or --around LON,LAT');
}

export const downloadCommand: CommandSpec = {
  words: ['download'],
  operands: ['scene id or order item id'],
  usage:
    'eo download <scene id or order item id> (--area FILE | --aoi ID | --around LON,LAT [--radius M]) [--resolution native|<N>m] [--out FILE] [--kind catalog|order_item|aoi_asset] [--resend | --download-id ID] [--imagery-budget MB] [--progress auto|lines|off] [--format json|table]',
  options: [
    'area',
    'aoi',
    'around',
    'radius',
    'resolution',
    'out',
    'kind',
    'resend',
    'download-id',
    'imagery-budget',
    'progress',
    'format',
  ],
  async run(ctx) {
    const { values } = ctx;
    const format = ctx.format();
    const resolution = parseResolution(values.resolution);
    const budgetBytes =
      values['imagery-budget'] === undefined
        ? DEFAULT_IMAGERY_BUDGET_BYTES
        : intFlag(values['imagery-budget'], 'imagery-budget', 1) * MB;
    if (values.resend && values['download-id'])
      throw new UsageError('--resend and --download-id: give one of them');
    const db = ctx.database({ create: true });
    let scene: SceneChoice;
    try {
      scene = findScene(db.sqlite, ctx.operands[0]!, parseKind(values.kind), values.aoi);
    } catch (e) {
      if (e instanceof SceneLookupError) throw new UsageError(e.message);
      throw e;
    }
    const area = await siteArea(ctx, values, scene, db.sqlite);
    const client = ctx.client();
    const progress = offlineProgress(ctx.io.stderr, progressMode(values.progress, ctx.io.stderr));
    let raster: OfflineRaster;
    try {
      raster = await takeOffline(
        db,
        { scene, area, resolution },
        {
          client,
          serviceUrl: values.url ?? ctx.io.env.EO_URL!,
          signal: ctx.io.signal,
          budgetBytes,
          resend: values.resend,
          downloadId: values['download-id'],
          onProgress: (p) => {
            progress.update(p);
            // Said whatever the progress mode: the user is about to wait for the whole file.
            if (p.phase === 'whole-file' && progressMode(values.progress, ctx.io.stderr) === 'off')
              ctx.io.stderr.write(
                `eo download: the file is ${p.reason}: taking it whole (${(p.bytes / MB).toFixed(1)} MB)\n`,
              );
          },
        },
      );
    } catch (e) {
      progress.end();
      if (e instanceof OfflineError) {
        const hint =
          e.raster?.state === 'unconfirmed'
            ? ' (eo download ... --resend, or --download-id ID)'
            : e.raster && e.raster.state !== 'failed'
              ? ' (run the same command again to resume)'
              : '';
        throw new CliFailure(`${e.message}${hint}`);
      }
      throw e;
    }
    progress.end();
    if (values.out !== undefined && raster.file) {
      const out = resolvePath(ctx.io, values.out);
      fs.copyFileSync(raster.file, out);
      ctx.io.stderr.write(`eo download: wrote ${out}\n`);
    }
    if (raster.mode === 'whole' && raster.message)
      ctx.io.stderr.write(`eo download: ${raster.message}\n`);
    if (format === 'json') writeJson(ctx.io.stdout, raster);
    else writeRasterTable(ctx, [raster]);
    return EXIT.ok;
  },
};

/** The offline rasters as `eo status` and `eo download` list them. */
export function writeRasterTable(ctx: CommandContext, rasters: readonly OfflineRaster[]): void {
  writeTable(
    ctx.io.stdout,
    ['RASTER', 'SCENE', 'AREA', 'LEVEL', 'CRS', 'SIZE', 'BANDS', 'MB', 'STATE', 'STORED'],
    rasters.map((r) => [
      r.id,
      r.scene.sceneId ?? r.scene.ref,
      r.area.label,
      r.level === null ? r.resolution : `${r.level} (${r.resolution})`,
      r.epsg === null ? '' : `EPSG:${r.epsg}`,
      r.width === null ? '' : `${r.width}x${r.height}`,
      r.bands.join(' '),
      ((r.bytes ?? r.fetchedBytes) / MB).toFixed(1),
      r.mode === 'whole' ? `${r.state} (whole file)` : r.state,
      isoFromUs(r.storedAt === null ? null : r.storedAt * 1000),
    ]),
  );
}

/** The offline rasters' totals `eo status` prints: how many are stored, their bytes, the budget. */
export interface RasterTotals {
  readonly stored: number;
  /** Taken offline but not stored yet (stopped or waiting). */
  readonly unfinished: number;
  readonly bytes: number;
  /** The imagery budget a download counts against unless `--imagery-budget` is given. */
  readonly budgetBytes: number;
}

export function rasterTotals(rasters: readonly OfflineRaster[]): RasterTotals {
  const stored = rasters.filter((r) => r.state === 'stored');
  return {
    stored: stored.length,
    unfinished: rasters.length - stored.length,
    bytes: stored.reduce((s, r) => s + (r.bytes ?? 0), 0),
    budgetBytes: DEFAULT_IMAGERY_BUDGET_BYTES,
  };
}

export const rasterTotalsLine = (t: RasterTotals): string =>
  `offline rasters: ${t.stored} stored, ${(t.bytes / MB).toFixed(1)} MB` +
  `${t.unfinished > 0 ? `, ${t.unfinished} unfinished` : ''}` +
  ` (imagery budget ${(t.budgetBytes / MB).toFixed(0)} MB)\n`;

/** Every offline raster of the mirror, newest first. */
export function offlineRasters(db: {
  sqlite: Parameters<typeof makeOfflineRasterStore>[0];
  file: string;
}) {
  return makeOfflineRasterStore(db.sqlite)
    .all()
    .map((row) => rasterOf(row, db.file));
}
