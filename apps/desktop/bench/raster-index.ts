/**
 * Offline index recompute benchmark (issue 24): NDVI over every full-resolution pixel of a
 * 4,096 x 4,096 four-band window, computed by the code the raster worker and the index export
 * run (`shared/raster-index.ts`: the index editor's expression compiled into `@eo/domain`'s
 * kernel, fed reflectance in the service's units, nodata as undefined) over the tiles the
 * worker's engine decoded (read by HTTP range from the backend's raster route on 127.0.0.1).
 * The baseline, in the same run and interleaved, is a hand-written typed-array loop computing
 * the same expression over the same tiles ((NIR - RED) / (NIR + RED) of value x scale x 1,000,
 * NaN at nodata). Target: the kernel's speed at least 0.5x the loop's; both results are
 * compared pixel by pixel (the same values, to float32 rounding, or the figure means nothing).
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/raster-index.ts [--smoke]
 */
import { INDEX_BAND_FACTOR } from '@eo/domain';
import { median, reportVerdict } from '@eo/bench-kit';
import {
  OpenRaster,
  TileCache,
  httpRangeSource,
  type DecodedTile,
} from '../src/renderer/capabilities/rasters/raster-source';
import { indexOfTile, kernelOf } from '../src/shared/raster-index';
import { machine, serveSite } from './raster-site';

const smoke = process.argv.includes('--smoke');
const SIDE = smoke ? 1024 : 4096;
const SAMPLES = smoke ? 2 : 7;
const NDVI = '(NIR - RED) / (NIR + RED)';
const RED = 2;
/** The kernel keeps every intermediate in float32 (what an index raster stores); the loop, float64. */
const TOLERANCE = 1e-6;
const NIR = 3;

const served = await serveSite(SIDE);
const raster = await OpenRaster.open(
  'site',
  await httpRangeSource(served.url),
  new TileCache<DecodedTile>(512 * 1024 * 1024),
);
const l = raster.tiff.level(0);
const tiles: DecodedTile[] = [];
for (let ty = 0; ty < Math.ceil(l.height / l.tileHeight); ty++)
  for (let tx = 0; tx < Math.ceil(l.width / l.tileWidth); tx++) {
    const t = await raster.tile(0, tx, ty);
    if (t) tiles.push(t);
  }
await served.close();
const pixels = tiles.length * l.tileWidth * l.tileHeight;
const nodata = raster.tiff.nodata;
const scales = Array.from({ length: raster.tiff.bandCount }, (_, b) => ({
  scale: raster.tiff.metadata.bands[b]?.scale ?? 0.0001,
  offset: raster.tiff.metadata.bands[b]?.offset ?? 0,
}));

/** The app's computation: what the engine runs per tile. */
function kernelRound(): Float32Array[] {
  const kernel = kernelOf(NDVI);
  return tiles.map(
    (t) =>
      indexOfTile(kernel, t.bands, t.width * t.height, [NIR, RED], scales, nodata).components[0]!,
  );
}

/** The same expression, hand-written over the same planes. */
function handRound(): Float32Array[] {
  const fr = scales[RED]!.scale * INDEX_BAND_FACTOR;
  const or = scales[RED]!.offset * INDEX_BAND_FACTOR;
  const fn = scales[NIR]!.scale * INDEX_BAND_FACTOR;
  const on = scales[NIR]!.offset * INDEX_BAND_FACTOR;
  return tiles.map((t) => {
    const red = t.bands[RED]!;
    const nir = t.bands[NIR]!;
    const n = t.width * t.height;
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const rv = red[i]!;
      const nv = nir[i]!;
      if (rv === nodata || nv === nodata) out[i] = NaN;
      else {
        const r = rv * fr + or;
        const v = nv * fn + on;
        out[i] = (v - r) / (v + r);
      }
    }
    return out;
  });
}

const time = (f: () => Float32Array[]) => {
  const t0 = performance.now();
  const got = f();
  return { ms: performance.now() - t0, got };
};

const before = machine();
const kernelMs: number[] = [];
const handMs: number[] = [];
let differing = 0;
// One warm-up of each (JIT), then interleaved samples.
kernelRound();
handRound();
for (let s = 0; s < SAMPLES; s++) {
  const k = time(kernelRound);
  const h = time(handRound);
  kernelMs.push(k.ms);
  handMs.push(h.ms);
  if (s === 0)
    k.got.forEach((a, i) => {
      const b = h.got[i]!;
      for (let j = 0; j < a.length; j++)
        if (!(Math.abs(a[j]! - b[j]!) <= TOLERANCE || (Number.isNaN(a[j]) && Number.isNaN(b[j]))))
          differing++;
    });
}
const mp = (ms: number) => pixels / 1e6 / (ms / 1000);
const kernelSpeed = mp(median(kernelMs));
const handSpeed = mp(median(handMs));
console.log(
  `raster index: NDVI over ${SIDE}x${SIDE} full-resolution pixels (${tiles.length} tiles of ${l.tileWidth} px, ${(pixels / 1e6).toFixed(1)} Mpx), ${SAMPLES} samples each, interleaved${smoke ? ' (smoke)' : ''}; ${before} before, ${machine()} after`,
);
console.log(
  `  app kernel (shared/raster-index): median ${median(kernelMs).toFixed(0)} ms (${kernelSpeed.toFixed(0)} Mpx/s); samples ${kernelMs.map((m) => m.toFixed(0)).join(', ')} ms`,
);
console.log(
  `  hand-written typed-array loop:    median ${median(handMs).toFixed(0)} ms (${handSpeed.toFixed(0)} Mpx/s); samples ${handMs.map((m) => m.toFixed(0)).join(', ')} ms`,
);
reportVerdict(
  'raster-index',
  [
    // Per interleaved pair (load drifts between pairs, less within one), then their median.
    {
      what: 'index speed, app kernel / hand loop (median of pairs)',
      value: median(kernelMs.map((k, i) => handMs[i]! / k)),
      atLeast: 0.5,
      unit: '×',
    },
    {
      what: 'pixels whose value differs from the hand loop',
      value: differing,
      atMost: 0,
      digits: 0,
    },
  ],
  { smoke },
);
