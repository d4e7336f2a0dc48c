/**
 * A scene's COG under a busy render pool, with the service's real pool and threads: the
 * organisation keeps its share of the queue full of pictures (a desktop syncing the overviews of
 * its catalog asks for hundreds), and the render still goes on, its batches waiting their turn
 * in the organisation's line instead of being refused and given up after a few retries (which
 * failed every demo scene's download with "the service could not render this scene"). A scene
 * past the pixel limit gets its reason at once. Orders and counts only, no timing: the pictures
 * stop by count, and the render must end before they do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../../testing/harness';
import { insertSquareScene, type SquareScene } from '../../../testing/scenes';
import { makeSceneLookup } from '../lookup';
import { MAX_SCENE_PIXELS } from '../scene';
import type { SceneRef } from '../scene-cogs';

/** Its share: one picture running and two waiting fill it. */
const SHARE = 2;
/** Pictures asked for at most: the render (one batch, behind SHARE + 1 of them) ends by the 7th. */
const MAX_PICTURES = 12;

const SMALL: SquareScene = {
  id: 'TEST_BUSY_SMALL',
  lon: 7.6,
  lat: 45.1,
  km: 0.6,
  datetime: '2024-07-04T10:00:00Z',
  cloudCover: 20,
};
/** A Kestrel scene (0.5 m) of 25 km: 50,000 px square, past the limit. */
const HUGE: SquareScene = {
  id: 'TEST_BUSY_HUGE',
  lon: 7.9,
  lat: 45.1,
  km: 25,
  datetime: '2024-07-04T10:00:00Z',
  satelliteId: 'sat-kestrel-1',
};
const ref = (s: SquareScene): SceneRef => ({ source: 'archive', id: s.id });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    scenes: 5,
    renderPool: { threads: 1, maxQueuedPerOwner: SHARE },
  });
  insertSquareScene(t.app.ctx.sqlite, SMALL);
  insertSquareScene(t.app.ctx.sqlite, HUGE);
});
afterAll(async () => t?.close());

describe('a scene COG while the organisation fills its share of the render pool', () => {
  it('renders, its batches waiting in line: none refused, done before the pictures stop', async () => {
    const { render } = t.app.ctx;
    const cogs = t.app.ctx.imagery.cogs;
    const look = makeSceneLookup(t.app.ctx)(ref(SMALL), null)!.look;
    // Lanes that ask for another picture the moment one is done (in the same microtask), so
    // the share is full whenever a timer (a retry) runs; a lane refused (the share is full while
    // a batch holds the thread) asks again when the next picture is done.
    let asked = 0;
    let refusedPictures = 0;
    let rendered = false;
    let wake = () => undefined as void;
    let nextDone = new Promise<void>((r) => (wake = r));
    const pictureDone = () => {
      const w = wake;
      nextDone = new Promise<void>((r) => (wake = r));
      w();
    };
    const lane = async () => {
      while (!rendered && asked < MAX_PICTURES) {
        asked++;
        try {
          await render.run(DEMO.orgId, 'quicklook', { scene: look, variant: 'thumbnail' });
          pictureDone();
        } catch (e) {
          if ((e as { status?: unknown }).status !== 503) throw e;
          refusedPictures++;
          await nextDone;
        }
      }
    };
    const lanes = Array.from({ length: SHARE + 1 }, lane);
    expect(render.stats().queuedByOwner[DEMO.orgId]).toBe(SHARE);

    expect(cogs.ensure(DEMO.orgId, ref(SMALL))).toMatchObject({ status: 'rendering' });
    await cogs.settled();
    rendered = true;
    const picturesWhenDone = asked;
    pictureDone(); // a lane refused last goes on, sees the render done, and ends
    await Promise.all(lanes);

    expect(cogs.ensure(DEMO.orgId, ref(SMALL))).toMatchObject({ status: 'ready' });
    // Every refusal was a picture's: no batch of the render was turned away.
    expect(render.stats().refused).toBe(refusedPictures);
    expect(picturesWhenDone).toBeLessThan(MAX_PICTURES);
  });

  it('says at once why a scene past the pixel limit gets no file (no render, no wait)', () => {
    const scene = makeSceneLookup(t.app.ctx)(ref(HUGE), null)!;
    expect(scene.width * scene.height).toBeGreaterThan(MAX_SCENE_PIXELS);
    const before = t.app.ctx.render.stats();
    const state = t.app.ctx.imagery.cogs.ensure(DEMO.orgId, ref(HUGE));
    expect(state).toEqual({
      status: 'failed',
      reason: expect.stringMatching(/^the scene is \d+ × \d+ px, more than the 2,147,483,648 px/),
    });
    expect(t.app.ctx.render.stats()).toEqual(before);
  });
});
