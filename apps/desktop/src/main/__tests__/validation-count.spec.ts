/**
 * How many times the Electron path runs a schema over the same input: a catalog search from
 * main's IPC relay to the mirror, and a queued order from the relay to the service's database
 * (the real reference service on 127.0.0.1). The renderer's own form check is not in this test
 * (it runs in the page: `stores/catalog-filters.ts`, the order composer), so each figure here is one
 * less than the path's total. See "How a call travels" in CONTRIBUTING.md.
 *
 * Before the arguments were validated once per trust boundary: a search ran its schema in main,
 * dispatch and the mirror's search (3, 4 with the renderer); an order in main, dispatch, the
 * outbox, the client and the service (5, 6 with the form). Now main only relays, the mirror's
 * search takes dispatch's parsed query, the outbox queues dispatch's parsed create as checked
 * (`enqueueChecked`: @eo/domain's `OutboxCreate` brands what it parses), and the client does not
 * check again what passed the same schema at enqueue.
 */
import {
  CatalogSearchRequest,
  CreateOrderRequest,
  OpenCreateOrderRequest,
  type CatalogSearchRequestInput,
} from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSchemaRuns } from '@eo/domain/testing';
import { startBackend, startService, type TestService } from '../../backend/__tests__/harness';
import { taskingOrder } from '../../backend/__tests__/create-inputs';
import type { CallResult } from '../../shared/contract';
import { registerIpc, type IpcEventLike } from '../ipc';

const trusted: IpcEventLike = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html' } };

let service: TestService;
beforeAll(async () => {
  service = await startService(200);
});
afterAll(async () => {
  await service?.close();
});

/** Main's relay in front of a real backend (production dispatch options: no output checks). */
function electronPath() {
  const t = startBackend({ dispatch: {} });
  const handlers = new Map<string, (e: IpcEventLike, ...a: unknown[]) => unknown>();
  const relayed: Array<() => void> = [];
  registerIpc(
    {
      handle: (ch, fn) => handlers.set(ch, fn),
      removeHandler: (ch) => handlers.delete(ch),
    },
    {
      call: (m, i) => {
        for (const r of relayed) r();
        return t.backend.dispatch(m, i);
      },
      isTrustedSender: () => true,
    },
  );
  return {
    t,
    /** Called with no arguments each time main hands a call on to the backend. */
    onRelay: (fn: () => void) => relayed.push(fn),
    invoke: async (method: string, input?: unknown) => {
      const r = (await handlers.get('eo:call')!(trusted, method, input)) as CallResult<unknown>;
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value;
    },
  };
}

describe('schema runs per call on the Electron path (main onwards)', () => {
  it('a catalog search', async () => {
    const p = electronPath();
    try {
      const runs = countSchemaRuns(CatalogSearchRequest);
      let inMain = -1;
      p.onRelay(() => (inMain = runs.count()));
      try {
        const query: CatalogSearchRequestInput = { bbox: [0, 0, 40, 40], limit: 20 };
        await p.invoke('catalog.search', query);
        const figures = { main: inMain, backend: runs.count() - inMain };
        console.info('schema runs per catalog search (main onwards):', figures);
        expect(figures).toEqual({ main: 0, backend: 1 });
      } finally {
        runs.restore();
      }
    } finally {
      await p.t.close();
    }
  });

  it('a queued order, from the relay to the service', async () => {
    const p = electronPath();
    try {
      // "Submit all" sends orders without the review only with this setting (order-review.spec).
      await p.invoke('settings.update', {
        serviceUrl: service.url,
        apiKey: service.key,
        autoSendOrders: true,
      });
      const open = countSchemaRuns(OpenCreateOrderRequest);
      const spec = countSchemaRuns(CreateOrderRequest);
      const total = () => open.count() + spec.count();
      let inMain = -1;
      p.onRelay(() => (inMain = inMain < 0 ? total() : inMain));
      try {
        await p.invoke('outbox.enqueue', { kind: 'order', input: taskingOrder([{ name: 'A' }]) });
        const queued = total();
        const openQueued = open.count();
        const result = (await p.invoke('outbox.flush')) as { sent: number };
        expect(result.sent).toBe(1);
        const figures = {
          main: inMain,
          backend: queued - inMain,
          // The client's check (OpenCreateOrderRequest) and the service's (CreateOrderRequest).
          client: open.count() - openQueued,
          service: spec.count(),
        };
        console.info('schema runs per queued order (main onwards):', figures);
        // Dispatch (the contract's `outbox.enqueue` argument) only: the outbox takes it as checked.
        expect(figures).toEqual({ main: 0, backend: 1, client: 0, service: 1 });
      } finally {
        open.restore();
        spec.restore();
      }
    } finally {
      await p.t.close();
    }
  });
  it('a quote: dispatch checks it, the service prices it', async () => {
    const p = electronPath();
    try {
      await p.invoke('settings.update', { serviceUrl: service.url, apiKey: service.key });
      const open = countSchemaRuns(OpenCreateOrderRequest);
      const spec = countSchemaRuns(CreateOrderRequest);
      try {
        const quote = (await p.invoke('orders.quote', taskingOrder([{ name: 'Q' }]))) as {
          order_items: unknown[];
        };
        expect(quote.order_items).toHaveLength(1);
        // Dispatch's check, and the service's; the client sends what dispatch checked.
        expect({ backend: open.count(), service: spec.count() }).toEqual({
          backend: 1,
          service: 1,
        });
      } finally {
        open.restore();
        spec.restore();
      }
    } finally {
      await p.t.close();
    }
  });
});
