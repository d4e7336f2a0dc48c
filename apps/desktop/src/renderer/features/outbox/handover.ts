/**
 * Queued work handed over from the page: "Hand over queued work…" shows what the file would take
 * and its size (`outbox.handoverPlan`), then writes it (`outbox.handOver`: Electron's main saves
 * it through a dialog, browser mode downloads it); a file that was not saved is taken back at
 * once (`outbox.takeBack`), so work is never both queued here and in no file. "Send handed-over
 * work…" sends a picked file to `outbox.receiveHandover`, queued here under the entries' own ids.
 * Outcomes are said in words; the file's bytes are never kept in a store.
 */
import type { OutboxKind } from '@eo/domain';
import {
  MAX_IMPORT_FILE_BYTES,
  type HandoverPlanView,
  type HandoverReceived,
} from '../../../shared/contract';
import { formatBytes } from '../../format/units';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { downloadFile } from '../../ui/download-file';
import { base64Of } from '../file-import/file-preview-store';

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const KIND_WORDS: Record<OutboxKind, [string, string]> = {
  order: ['order', 'orders'],
  aoi: ['AOI', 'AOIs'],
  index: ['custom index', 'custom indices'],
  visualization: ['visualization', 'visualizations'],
  delivery: ['delivery', 'deliveries'],
  job: ['job', 'jobs'],
};

/** "3 queued creates (1 AOI, 2 orders); 4.1 kB; 2 orders wait there for a fresh quote". */
export function describeHandover(plan: HandoverPlanView): string {
  const byKind = new Map<OutboxKind, number>();
  for (const e of plan.entries) byKind.set(e.kind, (byKind.get(e.kind) ?? 0) + 1);
  const kinds = [...byKind].map(([k, n]) => plural(n, ...KIND_WORDS[k]));
  const parts = [
    `${plural(plan.entries.length, 'queued create')} (${kinds.join(', ')})`,
    formatBytes(plan.bytes),
  ];
  if (plan.orders > 0)
    parts.push(
      `${plural(plan.orders, 'order')} wait${plan.orders === 1 ? 's' : ''} there for a confirmation at a fresh quote`,
    );
  if (plan.receipts > 0)
    parts.push(`with ${plural(plan.receipts, 'receipt')} of work sent here for another laptop`);
  return parts.join('; ');
}

export async function planHandover(): Promise<
  { ok: true; plan: HandoverPlanView } | { ok: false; message: string }
> {
  try {
    return { ok: true, plan: await useBridge().call('outbox.handoverPlan') };
  } catch (err) {
    return { ok: false, message: `Cannot hand over: ${readableError(err).message}` };
  }
}

/** Writes the plan's file; what was handed over and not saved goes back to the queue. */
export async function handOver(plan: HandoverPlanView): Promise<Outcome> {
  const bridge = useBridge();
  const ids = plan.entries.map((e) => e.id);
  const takeBack = () => bridge.call('outbox.takeBack', { ids }).catch(() => undefined);
  let file;
  try {
    file = await bridge.call('outbox.handOver', { ids });
  } catch (err) {
    // Main could not save the file the backend wrote: the work stays here. (When the backend
    // refused, nothing was handed over and there is nothing to take back.)
    await takeBack();
    return { ok: false, message: `Not handed over: ${readableError(err).message}` };
  }
  const what = plural(file.handedOver.length, 'queued create');
  if (file.savedTo === null) {
    await takeBack();
    return { ok: true, message: 'Not handed over: the dialog was cancelled; the work stays here.' };
  }
  const where = file.savedTo ?? file.fileName;
  if (file.savedTo === undefined) downloadFile(file);
  return {
    ok: true,
    message: `Handed over ${what} in ${where}: the laptop that opens it sends them; this one never will.`,
  };
}

/** "Queued 3 creates from another laptop (2 orders wait for your review); 1 of ours …". */
export function describeReceived(r: HandoverReceived): string {
  const parts = [`Queued ${plural(r.queued, 'create')} from another laptop`];
  if (r.orders > 0)
    parts[0] += ` (${plural(r.orders, 'order')} wait${r.orders === 1 ? 's' : ''} for your review at today's price)`;
  if (r.confirmed > 0)
    parts.push(`${plural(r.confirmed, 'create')} handed over from here were sent there`);
  if (r.kept > 0) parts.push(`${r.kept} already here, left as they were`);
  return `${parts.join('; ')}.`;
}

export async function receiveHandover(file: File): Promise<Outcome> {
  if (!file.name.toLowerCase().endsWith('.json'))
    return { ok: false, message: `${file.name}: handed-over work is a .json file.` };
  if (file.size > MAX_IMPORT_FILE_BYTES)
    return {
      ok: false,
      message: `${file.name}: ${formatBytes(file.size)}, larger than any handover file (${formatBytes(MAX_IMPORT_FILE_BYTES)}).`,
    };
  try {
    const base64 = base64Of(new Uint8Array(await file.arrayBuffer()));
    const r = await useBridge().call('outbox.receiveHandover', { name: file.name, base64 });
    return { ok: true, message: describeReceived(r) };
  } catch (err) {
    return { ok: false, message: `Not taken in: ${readableError(err).message}` };
  }
}
