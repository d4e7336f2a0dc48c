/**
 * The review of queued orders (issue 17): offline they wait, and the header says so; on
 * reconnect the app quotes them by itself and shows each with its price now, what changed since
 * it was queued, and why a quote failed; "Send N orders (total X)" sends exactly those chosen.
 */
import { buildOrder, buildOrderItem } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractError, type OutboxEntryView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { orderCreate, queue } from '../../../__tests__/work-fixtures';
import { formatLocalDateTime } from '../../../format/units';
import { provideBridge } from '../../../stores/bridge-provider';
import { useConnectivityStore } from '../../../stores/connectivity';
import { useOutboxStore } from '../outbox-store';
import { useSettingsStore } from '../../settings/settings-store';
import OutboxScreen from '../OutboxScreen.vue';
import OrdersReviewNotice from '../OrdersReviewNotice.vue';
import { priceChange } from '../order-review-text';

let bridge: MemoryBridge;
const mounted: VueWrapper[] = [];

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  bridge.work.holdOrders = true;
  provideBridge(bridge);
});
afterEach(() => {
  mounted.splice(0).forEach((w) => w.unmount());
});

const QUOTED_AT = '2024-05-16T15:30:00.000Z';

function setOnline(online: boolean): void {
  useConnectivityStore().apply(
    online
      ? { state: 'online', checkedAt: new Date().toISOString(), since: new Date().toISOString() }
      : {
          state: 'offline',
          checkedAt: new Date().toISOString(),
          since: new Date().toISOString(),
          message: 'ECONNREFUSED',
        },
  );
}

/** Three orders queued offline: one previewed at 100, one never priced, one the service refuses. */
async function queuedOffline(): Promise<Record<'a' | 'b' | 'c' | 'delivery', OutboxEntryView>> {
  const a = await queue(bridge, orderCreate('North field'));
  const b = await queue(bridge, orderCreate('South field', 'East strip'));
  const c = await queue(bridge, orderCreate('Gone project field'));
  const delivery = await queue(bridge, {
    kind: 'delivery',
    input: {
      deliveries: [
        {
          order_item_ids: [`local:${a.id}#0`],
          cloud_info: { config: 's3-default', path: 'exports/a' },
        },
      ],
    },
  });
  bridge.work.composed[a.id] = { total: 100, quotedAt: QUOTED_AT };
  bridge.work.reviewQuote = (e) => {
    if (e.id === c.id) {
      throw new ContractError('invalid_argument', 'The service refused it: Invalid body', {
        issues: [{ path: 'order_items.0.project_id', message: 'unknown project "prj-gone"' }],
      });
    }
    return buildOrder({ total_amount: e.id === a.id ? 120 : 55.5 });
  };
  return { a, b, c, delivery };
}

async function mountApp(): Promise<{ screen: VueWrapper; notice: VueWrapper }> {
  setOnline(false);
  useOutboxStore().listen();
  await useSettingsStore().load();
  const notice = mount(OrdersReviewNotice, { attachTo: document.body });
  const screen = mount(OutboxScreen, { attachTo: document.body });
  mounted.push(notice, screen);
  await flushPromises();
  return { screen, notice };
}

const reviewCalls = () => bridge.calls.filter((c) => c.method === 'outbox.reviewOrders').length;
const row = (w: VueWrapper, id: string) => w.find(`[data-test="review-order"][data-id="${id}"]`);

describe('the review of queued orders', () => {
  it('waits offline, quotes on reconnect, and sends exactly the orders confirmed', async () => {
    const { a, b, c, delivery } = await queuedOffline();
    const { screen, notice } = await mountApp();

    // Offline: nothing is quoted, nothing can be sent; the header says orders wait.
    expect(notice.text()).toBe('3 orders to confirm');
    expect(screen.find('[data-test="review-status"]').text()).toContain(
      '3 orders wait for your confirmation. The service is not reachable: they are quoted when the service is back',
    );
    expect(screen.find('[data-test="send-orders"]').attributes('disabled')).toBeDefined();
    expect(reviewCalls()).toBe(0);
    expect(screen.find('[data-test="submit-all"]').text()).toBe('Submit all but orders (0)');

    // The service is back: the app quotes them by itself.
    setOnline(true);
    await flushPromises();
    expect(reviewCalls()).toBe(1);
    expect(notice.text()).toBe('Confirm 3 orders');

    const rowA = row(screen, a.id);
    expect(rowA.find('[data-test="review-name"]').text()).toBe('North field');
    expect(rowA.find('[data-test="review-price"]').text()).toBe('120.00 credits');
    expect(rowA.find('[data-test="review-change"]').text()).toBe(
      `+20.00 credits (+20.0 %) since it was queued (100.00 credits, quoted at ${formatLocalDateTime(QUOTED_AT)}).`,
    );
    expect(rowA.find('[data-test="review-dependents"]').text()).toBe(
      '1 entry waits for it (sent after it).',
    );
    const rowB = row(screen, b.id);
    expect(rowB.find('[data-test="review-name"]').text()).toBe('South field, East strip');
    expect(rowB.find('[data-test="review-price"]').text()).toBe('55.50 credits');
    expect(rowB.find('[data-test="review-change"]').text()).toBe(
      'Not priced offline: queued without a price preview.',
    );
    const rowC = row(screen, c.id);
    expect(rowC.find('[data-test="review-price"]').text()).toBe(
      'Not quoted, the service refused it: Item 1 › Project: Unknown project "prj-gone"',
    );
    expect(rowC.find('[data-test="review-pick"]').attributes('disabled')).toBeDefined();

    const send = screen.find('[data-test="send-orders"]');
    expect(send.text()).toBe('Send 2 orders (total 175.50 credits)');
    await rowB.find('[data-test="review-pick"]').setValue(false);
    expect(send.text()).toBe('Send 1 order (total 120.00 credits)');

    await send.trigger('click');
    await flushPromises();
    const sent = bridge.calls.filter((c) => c.method === 'outbox.sendOrders');
    expect(sent.map((c) => c.input)).toEqual([
      { orders: [{ id: a.id, updatedAt: a.updatedAt, total: 120 }] },
    ]);
    const state = (id: string) => bridge.work.outbox.find((e) => e.id === id)?.state;
    expect([state(a.id), state(delivery.id), state(b.id), state(c.id)]).toEqual([
      'sent',
      'sent',
      'queued',
      'queued',
    ]);
    // What is left is quoted again and shown.
    expect(reviewCalls()).toBe(2);
    expect(
      screen.findAll('[data-test="review-order"]').map((r) => r.attributes('data-id')),
    ).toEqual([b.id, c.id]);
    expect(notice.text()).toBe('Confirm 2 orders');
  });

  it('a price that changed after the review: nothing sent, the new price shown', async () => {
    const { a, b, c } = await queuedOffline();
    const { screen } = await mountApp();
    setOnline(true);
    await flushPromises();
    const quoteOf = bridge.work.reviewQuote;
    bridge.work.reviewQuote = (e) =>
      e.id === a.id ? buildOrder({ total_amount: 130 }) : quoteOf(e);
    await screen.find('[data-test="send-orders"]').trigger('click');
    await flushPromises();
    expect(screen.find('[data-test="order-review"]').text()).toContain(
      'The price of Order · 1 item: North field changed',
    );
    expect([a, b, c].map((e) => bridge.work.outbox.find((x) => x.id === e.id)?.state)).toEqual([
      'queued',
      'queued',
      'queued',
    ]);
    // Quoted again by itself: the button now says the price it would send at.
    expect(reviewCalls()).toBe(2);
    expect(row(screen, a.id).find('[data-test="review-price"]').text()).toBe('130.00 credits');
    expect(screen.find('[data-test="send-orders"]').text()).toBe(
      'Send 2 orders (total 185.50 credits)',
    );
  });

  it('nothing waits when Settings sends orders automatically', async () => {
    await queuedOffline();
    bridge.settings = { ...bridge.settings, autoSendOrders: true };
    const { screen, notice } = await mountApp();
    setOnline(true);
    await flushPromises();
    expect(notice.find('[data-test="orders-review-notice"]').exists()).toBe(false);
    expect(screen.find('[data-test="order-review"]').exists()).toBe(false);
    expect(reviewCalls()).toBe(0);
    expect(screen.find('[data-test="submit-all"]').text()).toBe('Submit all (4)');
  });

  it('a changed price says by how much; an unchanged one says so', () => {
    const composed = { total: 80, quotedAt: QUOTED_AT };
    const at = formatLocalDateTime(QUOTED_AT);
    expect(priceChange({ composed, quote: buildOrder({ total_amount: 60 }) })).toBe(
      `−20.00 credits (−25.0 %) since it was queued (80.00 credits, quoted at ${at}).`,
    );
    expect(priceChange({ composed, quote: buildOrder({ total_amount: 80 }) })).toBe(
      `Unchanged since it was queued (80.00 credits, quoted at ${at}).`,
    );
    expect(priceChange({ composed, quote: null })).toBe(`Was 80.00 credits, quoted at ${at}.`);
  });

  it('shows each item with its area, base price, uplifts and the service’s warnings before paying (issue 26, defect 5)', async () => {
    const a = await queue(bridge, orderCreate('North field', 'South strip'));
    const vhr = {
      item_id: 'uplift-very-high-resolution',
      title: 'Very high resolution',
      subtitle: 'Ground sample distance under 1 m',
      percentage: 30,
      amount: 30,
    };
    bridge.work.reviewQuote = () =>
      buildOrder({
        total_amount: 180,
        order_items: [
          buildOrderItem({
            name: 'North field',
            area: 12.5,
            base_amount: 100,
            final_amount: 130,
            uplifts: [vhr],
            validation_errors: [
              {
                code: 'GEOMETRY_NOT_COVERED',
                field: 'geometry',
                message: 'the scenes do not cover the whole geometry',
              },
            ],
          }),
          buildOrderItem({
            name: 'South strip',
            area: 4,
            base_amount: 50,
            final_amount: 50,
            uplifts: [],
            validation_errors: [],
          }),
        ],
      });
    const { screen } = await mountApp();
    setOnline(true);
    await flushPromises();
    const items = row(screen, a.id).findAll('[data-test="review-item"]');
    expect(items.map((i) => i.find('[data-test="review-item-name"]').text())).toEqual([
      'North field',
      'South strip',
    ]);
    const north = items[0]!;
    expect(north.find('[data-test="review-item-area"]').text()).toBe('12.5 km²');
    expect(north.find('[data-test="review-item-base"]').text()).toBe('100.00 credits');
    expect(north.find('[data-test="review-item-uplifts"]').text()).toBe(
      'Very high resolution +30 % (30.00 credits)',
    );
    expect(north.find('[data-test="review-item-final"]').text()).toBe('130.00 credits');
    expect(north.find('[data-test="review-item-warnings"]').text()).toBe(
      'the scenes do not cover the whole geometry (geometry)',
    );
    expect(items[1]!.find('[data-test="review-item-uplifts"]').text()).toBe('None');
    expect(items[1]!.find('[data-test="review-item-warnings"]').exists()).toBe(false);
    expect(row(screen, a.id).find('[data-test="review-price"]').text()).toBe('180.00 credits');
  });
});
