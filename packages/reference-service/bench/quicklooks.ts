/**
 * Benchmark: quicklooks rendered per second (land cover, clouds, light, PNG encode), against
 * a baseline measured in the same run on the same machine: the PNG encode of a flat image of
 * the same size (the floor of any picture this service sends). Scenes are the seed's own.
 *
 *   bash scripts/pnpm.sh --filter @eo/reference-service exec tsx bench/quicklooks.ts [--smoke]
 *
 * `--smoke`: a few pictures (checks the bench works; not a figure).
 */
import { QUICKLOOK_PIXELS } from '@eo/domain';
import { isSmoke, median, reportVerdict, type Check } from '@eo/bench-kit';
import { encodePng } from '../src/imagery/png';
import { quicklookSceneOf, renderQuicklook, type QuicklookScene } from '../src/imagery/quicklook';
import { generateScenes } from '../src/seed/scenes';

const smoke = isSmoke();
const THUMBS = smoke ? 6 : 120;
const OVERVIEWS = smoke ? 2 : 16;
const ROUNDS = smoke ? 1 : 3;

const scenes: QuicklookScene[] = [];
for (const s of generateScenes({ count: THUMBS })) scenes.push(quicklookSceneOf(s.feature)!);

/** Pictures per second of `make` over `items`, the median of `ROUNDS` rounds. */
function rate<T>(items: readonly T[], make: (item: T) => Buffer): { perS: number; bytes: number } {
  const rates: number[] = [];
  let bytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    bytes = 0;
    const t0 = performance.now();
    for (const it of items) bytes += make(it).length;
    rates.push(items.length / ((performance.now() - t0) / 1000));
  }
  return { perS: median(rates), bytes: bytes / items.length };
}

const flat = (size: number) => {
  const pixels = new Uint8Array(size * size * 3).fill(128);
  return { width: size, height: size, channels: 3 as const, pixels };
};
const thumbFloor = rate(scenes, () => encodePng(flat(QUICKLOOK_PIXELS.thumbnail)));
const thumbs = rate(scenes, (s) => encodePng(renderQuicklook(s, QUICKLOOK_PIXELS.thumbnail)));
const overviewScenes = scenes.slice(0, OVERVIEWS);
const overviewFloor = rate(overviewScenes, () => encodePng(flat(QUICKLOOK_PIXELS.overview)));
const overviews = rate(overviewScenes, (s) =>
  encodePng(renderQuicklook(s, QUICKLOOK_PIXELS.overview)),
);

process.stdout.write(
  [
    `quicklooks bench${smoke ? ' (smoke sizes, not a figure)' : ''}: ${THUMBS} thumbnails, ${OVERVIEWS} overviews, median of ${ROUNDS} rounds`,
    `  thumbnail (${QUICKLOOK_PIXELS.thumbnail} px): ${thumbs.perS.toFixed(1)}/s, ${Math.round(thumbs.bytes)} bytes; flat encode ${thumbFloor.perS.toFixed(0)}/s`,
    `  overview (${QUICKLOOK_PIXELS.overview} px): ${overviews.perS.toFixed(2)}/s, ${Math.round(overviews.bytes)} bytes; flat encode ${overviewFloor.perS.toFixed(1)}/s`,
  ].join('\n') + '\n',
);
// Targets: a page of 100 archive items gets its thumbnails within 10 s of its first view
// (10/s; later views read the stored file), an overview within a second; and a picture costs
// at most 40 flat encodes of its size (the same-run baseline, robust to the machine's load).
/** A picture's cost in flat encodes of its size (the same-run baseline). */
const costRatio = (what: string, floor: { perS: number }, pictures: { perS: number }): Check => ({
  what: `${what} cost / flat encode cost`,
  value: floor.perS / pictures.perS,
  atMost: 40,
  unit: '×',
  digits: 1,
});
reportVerdict('quicklooks', [
  { what: 'thumbnails rendered/s', value: thumbs.perS, atLeast: 10, digits: 1 },
  costRatio('thumbnail', thumbFloor, thumbs),
  { what: 'overviews rendered/s', value: overviews.perS, atLeast: 1, digits: 2 },
  costRatio('overview', overviewFloor, overviews),
]);
