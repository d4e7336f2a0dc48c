/**
 * Paid orders confirmed at a fresh quote: `eo outbox quote` asks the service to price every
 * queued order now (its dry run: nothing is created); `eo outbox flush` holds the orders another
 * laptop handed over until `--confirm-orders ID=TOTAL,...` names each with the total the person
 * accepted, and those are quoted again just before they go: a price that moved (to the cent),
 * or one the service cannot give now, sends nothing.
 */
import type { BodyInput, EoClient } from '@eo/api-client';
import { createOutbox, PAID_KINDS, type Outbox, type OutboxEntry } from '../outbox/index';
import { UsageError } from './args';
import { CliFailure, type CommandSpec } from './context';
import { EXIT } from './io';
import { writeJson, writeTable } from './output';

/** The service's price for a queued order now (its dry run). */
export async function quoteNow(
  client: EoClient,
  entry: OutboxEntry,
  signal?: AbortSignal,
): Promise<number | null> {
  const body = { ...entry.input, dry_run: true } as BodyInput<'createOrder'>;
  const order = await client.createOrder(body, { signal, idempotencyKey: false });
  return typeof order.total_amount === 'number' ? order.total_amount : null;
}

/** `--confirm-orders ID=TOTAL,ID=TOTAL`. */
export function parseConfirmations(value: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (value === undefined) return out;
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([^=\s]+)=(\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new UsageError(`--confirm-orders: ${JSON.stringify(part)} is not ID=TOTAL`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

const cents = (v: number) => Math.round(v * 100);

/** The received orders a flush holds: those not confirmed at their price now (checked here). */
export async function heldOrders(
  outbox: Pick<Outbox, 'list'>,
  client: EoClient,
  confirmations: ReadonlyMap<string, number>,
  signal?: AbortSignal,
): Promise<string[]> {
  const waiting = outbox
    .list({ states: ['queued'] })
    .filter((e) => PAID_KINDS.includes(e.kind) && e.receivedAt !== null);
  for (const id of confirmations.keys())
    if (!waiting.some((e) => e.id === id))
      throw new CliFailure(`--confirm-orders: ${id} is no queued order from another laptop`);
  for (const e of waiting) {
    const total = confirmations.get(e.id);
    if (total === undefined) continue;
    const now = await quoteNow(client, e, signal).catch((err: unknown) => {
      throw new CliFailure(
        `order ${e.id} cannot be priced now (${(err as Error).message}); nothing was sent`,
      );
    });
    if (now === null || cents(now) !== cents(total))
      throw new CliFailure(
        `the price of order ${e.id} is now ${now === null ? 'unknown' : now.toFixed(2)}, not ${total.toFixed(2)}: quote it again (eo outbox quote); nothing was sent`,
      );
  }
  return waiting.filter((e) => !confirmations.has(e.id)).map((e) => e.id);
}

const names = (e: OutboxEntry) =>
  ((e.input.order_items as Array<{ name?: unknown }> | undefined) ?? [])
    .map((i) => (typeof i.name === 'string' ? i.name : '(unnamed)'))
    .join('; ');

export const outboxQuoteCommand: CommandSpec = {
  words: ['outbox', 'quote'],
  operands: [],
  usage: 'eo outbox quote [--format json|table]',
  options: ['format'],
  async run(ctx) {
    const format = ctx.format();
    const client = ctx.client();
    const { sqlite } = ctx.database({ create: false });
    const orders = createOutbox({ db: sqlite })
      .list({ states: ['queued'] })
      .filter((e) => PAID_KINDS.includes(e.kind));
    const rows = [];
    for (const e of orders) {
      let total: number | null = null;
      let problem: string | null = null;
      try {
        total = await quoteNow(client, e, ctx.io.signal);
      } catch (err) {
        problem = (err as Error).message;
      }
      rows.push({
        id: e.id,
        items: names(e),
        from: e.receivedAt === null ? 'here' : 'another laptop',
        total,
        problem,
      });
    }
    if (format === 'json') writeJson(ctx.io.stdout, rows);
    else
      writeTable(
        ctx.io.stdout,
        ['ID', 'ITEMS', 'FROM', 'TOTAL NOW'],
        rows.map((r) => [
          r.id,
          r.items,
          r.from,
          r.total?.toFixed(2) ?? `cannot price: ${r.problem ?? 'no total'}`,
        ]),
      );
    return EXIT.ok;
  },
};
