import { describe, expect, it } from 'vitest';
import { generateScenes } from '../../seed/scenes';
import { encodePng, type RasterImage } from '../png';
import { quicklookSceneOf, renderQuicklook, type QuicklookScene } from '../quicklook';
import { decodePng } from './png-decode';

const SIZE = 128;
const scenes = [...generateScenes({ count: 60 })].map((s) => quicklookSceneOf(s.feature as never)!);
const base = scenes[0]!;

/** Share of pixels a viewer would call cloud: bright and grey. */
function cloudFraction(img: RasterImage): number {
  let n = 0;
  const p = img.pixels;
  for (let i = 0; i < p.length; i += 3) {
    const lo = Math.min(p[i]!, p[i + 1]!, p[i + 2]!);
    const hi = Math.max(p[i]!, p[i + 1]!, p[i + 2]!);
    if (lo >= 185 && hi - lo <= 25) n++;
  }
  return n / (p.length / 3);
}

const meanAbsDiff = (a: RasterImage, b: RasterImage) => {
  let s = 0;
  for (let i = 0; i < a.pixels.length; i++) s += Math.abs(a.pixels[i]! - b.pixels[i]!);
  return s / a.pixels.length;
};

function pearson(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

describe('quicklook rendering', () => {
  it('is a pure function of the scene: same scene, same PNG bytes', () => {
    const a = encodePng(renderQuicklook(base, SIZE));
    const b = encodePng(renderQuicklook({ ...base }, SIZE));
    expect(a.equals(b)).toBe(true);
    const img = decodePng(a);
    expect(Math.max(img.width, img.height)).toBe(SIZE);
  });

  it('shows the same ground for two acquisitions of one place, which still differ as acquisitions do', () => {
    const clear = { ...base, cloudCover: 0 };
    const a = renderQuicklook(clear, SIZE);
    // Same place, another pass: other id (clouds, haze), same day and sun.
    const b = renderQuicklook({ ...clear, id: `${base.id}-again` }, SIZE);
    // Same place, half a year later, cloudier, lower sun.
    const c = renderQuicklook(
      {
        ...base,
        id: `${base.id}-winter`,
        datetimeMs: base.datetimeMs + 182 * 86_400_000,
        cloudCover: 40,
        sunElevation: Math.max(5, base.sunElevation - 25),
      },
      SIZE,
    );
    // Another place entirely.
    const elsewhere = renderQuicklook({ ...scenes[7]!, cloudCover: 0 }, SIZE);
    expect(Buffer.from(a.pixels).equals(Buffer.from(b.pixels))).toBe(false);
    expect(meanAbsDiff(a, b)).toBeLessThan(12); // haze only
    expect(meanAbsDiff(a, c)).toBeGreaterThan(meanAbsDiff(a, b) * 2);
    expect(meanAbsDiff(a, elsewhere)).toBeGreaterThan(meanAbsDiff(a, b) * 2);
  });

  it('covers eo:cloud_cover percent of the picture with cloud', () => {
    // Snow is as white as cloud in true colour (as in real imagery): measure over bare ground.
    const snowFree = scenes.filter(
      (s) => cloudFraction(renderQuicklook({ ...s, cloudCover: 0, sunElevation: 50 }, 64)) < 0.02,
    );
    expect(snowFree.length).toBeGreaterThanOrEqual(40);
    const measured: number[] = [];
    const wanted: number[] = [];
    for (const [i, s] of snowFree.slice(0, 25).entries()) {
      const cover = (i * 37) % 100;
      const f = cloudFraction(renderQuicklook({ ...s, cloudCover: cover, sunElevation: 50 }, SIZE));
      measured.push(f);
      wanted.push(cover / 100);
      // Cloud edges blur it a little; never by much.
      expect(Math.abs(f - cover / 100), `${s.id} at ${cover}%`).toBeLessThan(0.12);
    }
    expect(pearson(wanted, measured)).toBeGreaterThan(0.95);
    // The scenes' own cover (what the archive says) too.
    const own = snowFree.slice(25, 40);
    const ownMeasured = own.map((s) =>
      cloudFraction(renderQuicklook({ ...s, sunElevation: 50 }, SIZE)),
    );
    expect(
      pearson(
        own.map((s: QuicklookScene) => s.cloudCover / 100),
        ownMeasured,
      ),
    ).toBeGreaterThan(0.9);
  });
});
