/**
 * The review of queued orders before they are sent (issue 17): every queued order quoted by
 * the real reference service, beside the price the composer's preview gave when it was queued
 * (kept across a restart), a failed quote with its reason; only the confirmed orders leave, and
 * only as they were reviewed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTo,
  errorOf,
  startBackend,
  startService,
  type TestBackend,
  type TestService,
} from './harness';
import type { ReviewedOrder } from '../../shared/contract';
import { taskingOrder } from './create-inputs';

let service: TestService;
beforeAll(async () => {
  service = await startService(60);
});
afterAll(async () => {
  await service?.close();
});

function ordersOnService(): number {
  return (
    service.server.app.ctx.sqlite.prepare('SELECT count(*) AS n FROM orders').get() as {
      n: number;
    }
  ).n;
}

function itemsOnService(name: string): number {
  return (
    service.server.app.ctx.sqlite
      .prepare('SELECT count(*) AS n FROM order_items WHERE name = ?')
      .get(name) as { n: number }
  ).n;
}

const connect = (t: TestBackend) => connectTo(t, service);

/** As "Send N orders" confirms a reviewed order: as reviewed, at its price then. */
const confirmed = (o: ReviewedOrder, total = o.quote!.total_amount!) => ({
  id: o.id,
  updatedAt: o.updatedAt,
  total,
});

describe('the review of queued orders', () => {
  it('quotes each queued order beside its price when queued; sends exactly the confirmed ones', async () => {
    let t = await connect(startBackend());
    const { dataDir, secrets } = t;
    try {
      // Previewed, then queued as previewed: its price when queued is that quote.
      const previewedInput = taskingOrder([{ name: 'Previewed field' }]);
      const preview = await t.call('orders.quote', { ...previewedInput, dry_run: true });
      const previewed = await t.call('outbox.enqueue', { kind: 'order', input: previewedInput });
      // Previewed, then changed before queuing: that quote is not its price.
      await t.call('orders.quote', taskingOrder([{ name: 'Renamed after preview' }]));
      const renamed = await t.call('outbox.enqueue', {
        kind: 'order',
        input: taskingOrder([{ name: 'Renamed field' }]),
      });
      // Never previewed (queued offline); and one the service will refuse.
      const unpriced = await t.call('outbox.enqueue', {
        kind: 'order',
        input: taskingOrder([{ name: 'Offline field A' }, { name: 'Offline field B' }]),
      });
      const refused = await t.call('outbox.enqueue', {
        kind: 'order',
        input: taskingOrder([{ name: 'Gone project field', project: 'prj-gone' }]),
      });
      const delivery = await t.call('outbox.enqueue', {
        kind: 'delivery',
        input: {
          deliveries: [
            {
              order_item_ids: [`local:${previewed.id}#0`],
              cloud_info: { config: 's3-default', path: 'field/reviewed' },
            },
          ],
        },
      });

      // The price when queued is kept in the desktop store: a restart keeps it.
      await t.backend.close(); // the data dir stays
      t = await connect(startBackend({ dataDir, secrets }));
      const before = ordersOnService();
      const review = await t.call('outbox.reviewOrders');
      expect(ordersOnService()).toBe(before); // dry runs only
      expect(Date.parse(review.quotedAt)).not.toBeNaN();
      expect(review.orders.map((o) => o.id)).toEqual([
        previewed.id,
        renamed.id,
        unpriced.id,
        refused.id,
      ]);
      const [a, b, c, d] = review.orders;
      expect(a).toMatchObject({
        summary: 'Order · 1 item: Previewed field',
        names: ['Previewed field'],
        composed: { total: preview.total_amount },
        problem: null,
        dependents: 1,
      });
      expect(Date.parse(a!.composed!.quotedAt)).toBeLessThanOrEqual(Date.parse(review.quotedAt));
      expect(a!.quote!.total_amount).toBe(preview.total_amount);
      expect(b).toMatchObject({ composed: null, problem: null, dependents: 0 });
      expect(b!.quote!.total_amount).toBeGreaterThan(0);
      expect(c).toMatchObject({ names: ['Offline field A', 'Offline field B'], composed: null });
      expect(c!.quote!.order_items).toHaveLength(2);
      expect(d).toMatchObject({ quote: null, problem: { code: 'invalid_argument' } });
      expect(d!.problem!.message).toContain('unknown project "prj-gone"');
      expect(d!.problem!.issues).toEqual([
        { path: 'order_items.0.project_id', message: 'unknown project "prj-gone"' },
      ]);

      // An order edited after the review: refused as reviewed, nothing sent.
      await t.call('outbox.edit', {
        id: renamed.id,
        input: taskingOrder([{ name: 'Renamed again' }]),
      });
      const stale = await errorOf(t, 'outbox.sendOrders', {
        orders: [confirmed(a!), confirmed(b!)],
      });
      expect(stale).toMatchObject({ code: 'conflict' });
      expect(stale.message).toContain('changed since the review');
      expect(ordersOnService()).toBe(before);

      // Confirmed at another price than the service's now: quoted again, refused, nothing sent.
      const cheaper = await errorOf(t, 'outbox.sendOrders', {
        orders: [confirmed(c!), confirmed(a!, a!.quote!.total_amount! - 1)],
      });
      expect(cheaper).toMatchObject({ code: 'conflict' });
      expect(cheaper.message).toContain('The price of Order · 1 item: Previewed field changed');
      expect(ordersOnService()).toBe(before);
      // One that cannot be priced now is not sent either.
      const unpriceable = await errorOf(t, 'outbox.sendOrders', { orders: [confirmed(d!, 10)] });
      expect(unpriceable).toMatchObject({ code: 'conflict' });
      expect(unpriceable.message).toContain('cannot be priced now');
      expect(ordersOnService()).toBe(before);

      const sent = await t.call('outbox.sendOrders', {
        orders: [confirmed(a!), confirmed(c!)],
      });
      expect(sent).toMatchObject({ sent: 2, failed: 0, problems: [] });
      expect(ordersOnService()).toBe(before + 2);
      expect(itemsOnService('Previewed field')).toBe(1);
      expect(itemsOnService('Offline field A')).toBe(1);
      const states = Object.fromEntries(
        (await t.call('outbox.list')).entries.map((e) => [e.id, e.state]),
      );
      expect(states).toMatchObject({
        [previewed.id]: 'sent',
        [unpriced.id]: 'sent',
        [renamed.id]: 'queued',
        [refused.id]: 'queued',
        // Sent after its order, once the order's item completes (delivery-wait).
        [delivery.id]: 'queued',
      });

      // Sent already: confirming it again sends nothing.
      const again = await errorOf(t, 'outbox.sendOrders', {
        orders: [confirmed(a!)],
      });
      expect(again).toMatchObject({ code: 'conflict' });
      expect(again.message).toContain('is sent now');
    } finally {
      await t.close();
    }
  });

  it('a quote that cannot be asked says why, per order', async () => {
    const t = startBackend();
    try {
      const entry = await t.call('outbox.enqueue', {
        kind: 'order',
        input: taskingOrder([{ name: 'No service yet' }]),
      });
      const review = await t.call('outbox.reviewOrders');
      expect(review.orders).toEqual([
        expect.objectContaining({
          id: entry.id,
          quote: null,
          problem: { code: 'not_configured', message: expect.stringContaining('Settings') },
        }),
      ]);
    } finally {
      await t.close();
    }
  });
});
