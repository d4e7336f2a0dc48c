/**
 * The review of queued orders in words: each order's price now, what changed since it was
 * queued (the composer's quote then, with when it was asked), and the confirm button's label.
 */
import type { ReviewedOrder } from '../../../shared/contract';
import { refusalLine } from './refusal-words';
import { formatAmount, formatAmountChange } from '../../format/records';
import { formatLocalDateTime, type TimeFormatOptions } from '../../format/units';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "Field A, Field B": what the order is, by its items' names. */
export function orderName(o: Pick<ReviewedOrder, 'names'>): string {
  const shown = o.names.length > 3 ? [...o.names.slice(0, 3), '…'] : o.names;
  return shown.join(', ') || '(no items)';
}

/** The price now, or why there is none (the service's field problems in words). */
export function priceNow(o: Pick<ReviewedOrder, 'quote' | 'problem'>): string {
  if (o.quote) return formatAmount(o.quote.total_amount);
  const issues = o.problem?.issues ?? [];
  if (issues.length)
    return `Not quoted, the service refused it: ${issues.map((i) => refusalLine('order', i)).join('; ')}`;
  return `Not quoted: ${o.problem?.message ?? 'the service gave no price'}`;
}

/**
 * What changed since the order was queued: "Not priced offline" when it was queued without a
 * preview; otherwise the price then, quoted at its time, and the difference now.
 */
export function priceChange(
  o: Pick<ReviewedOrder, 'composed' | 'quote'>,
  opts: TimeFormatOptions = {},
): string {
  if (!o.composed) return 'Not priced offline: queued without a price preview.';
  const then = `${formatAmount(o.composed.total)}, quoted at ${formatLocalDateTime(o.composed.quotedAt, opts)}`;
  const now = o.quote?.total_amount;
  if (typeof now !== 'number') return `Was ${then}.`;
  const diff = Math.round((now - o.composed.total) * 100) / 100;
  if (diff === 0) return `Unchanged since it was queued (${then}).`;
  const pct =
    o.composed.total > 0
      ? ` (${diff > 0 ? '+' : '−'}${Math.abs((diff / o.composed.total) * 100).toFixed(1)} %)`
      : '';
  return `${formatAmountChange(diff)}${pct} since it was queued (${then}).`;
}

/** The confirm button: "Send 2 orders (total 1,234.50 credits)". */
export function sendLabel(count: number, total: number): string {
  if (count === 0) return 'Send orders';
  return `Send ${plural(count, 'order')} (total ${formatAmount(total)})`;
}

/** What follows an order: "1 entry waits for it (sent after it)". */
export function dependentsText(n: number): string {
  return n === 0
    ? ''
    : `${plural(n, 'entry', 'entries')} ${n === 1 ? 'waits' : 'wait'} for it (sent after it).`;
}
