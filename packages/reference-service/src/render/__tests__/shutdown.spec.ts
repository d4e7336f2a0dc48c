/**
 * Closing the service while pictures wait for the render pool: the close must not wait for the
 * queue to render (a full share is 16 renders of 0.1 to 2 s each). Counts, not times: after the
 * close starts, at most the one render under way may finish; every request gets an answer (the
 * picture, or 503 and retry). That the answered requests' keep-alive connections don't hold the
 * close is server-close.spec.ts's to prove: these 503s go out before the server closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import { until, within } from '../../__tests__/within';

const PICTURES = 8;

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ renderPool: { threads: 1, maxQueuedPerOwner: PICTURES } });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
// The test closes it; a failed test leaves it open.
afterAll(async () => t.close().catch(() => {}));

describe('closing while pictures wait for the render pool', () => {
  it('refuses the waiting renders (503), ends their connections, and closes', async () => {
    const r = await t.call({
      method: 'GET',
      url: `/v0/archives/collections/col-aurora-l2a/items?limit=${PICTURES}`,
    });
    expect(r.statusCode).toBe(200);
    const hrefs = (
      r.json() as { features: { assets: { thumbnail: { href: string } } }[] }
    ).features.map((f) => f.assets.thumbnail.href);
    expect(new Set(hrefs).size).toBe(PICTURES);

    const pool = t.app.ctx.render;
    const answers = hrefs.map((href) =>
      fetch(base + href).then(async (a) => ({ status: a.status, body: await a.text() })),
    );
    await until(
      () => pool.stats().queued === PICTURES - 1,
      `${PICTURES - 1} pictures waiting behind one rendering (${JSON.stringify(pool.stats())})`,
      30_000,
    );
    const doneBefore = pool.stats().done;
    await within(20_000, 'the app closing', t.app.close());

    const settled = await within(10_000, 'every picture answered', Promise.all(answers));
    const rendered = settled.filter((a) => a.status === 200);
    const refused = settled.filter((a) => a.status === 503);
    expect(rendered.length + refused.length, JSON.stringify(settled)).toBe(PICTURES);
    for (const a of refused) expect(a.body).toMatch(/shutting down/);
    // The one under way may have finished; none that waited was rendered.
    expect(pool.stats().done - doneBefore).toBeLessThanOrEqual(1);
    expect(rendered.length).toBeLessThanOrEqual(1 + doneBefore);
  });
});
