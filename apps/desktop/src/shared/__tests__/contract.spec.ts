import { describe, expect, it } from 'vitest';
import { EVENT_NAMES as EVENTS_ONLY, METHOD_NAMES } from '../names';
import {
  ContractError,
  encodeFootprints,
  EVENT_NAMES,
  METHODS,
  contract,
  events,
  isMethod,
  withContractErrors,
  type Bridge,
  parseInput,
  toContractError,
} from '../contract';

function rejects(method: string, raw: unknown): ContractError {
  try {
    parseInput(method, raw);
  } catch (e) {
    expect(e).toBeInstanceOf(ContractError);
    return e as ContractError;
  }
  throw new Error(`expected ${method} to reject ${JSON.stringify(raw)}`);
}

describe('contract', () => {
  it('lists the methods and events of the design', () => {
    expect(METHODS).toEqual([
      'app.info',
      'settings.get',
      'settings.update',
      'connectivity.check',
      'connectivity.networkChanged',
      'mirror.clear',
      'sync.run',
      'sync.cancel',
      'sync.status',
      'catalog.search',
      'catalog.footprints',
      'catalog.cloudHistogram',
      'catalog.get',
      'savedSearches.list',
      'savedSearches.save',
      'savedSearches.remove',
      'tiles.get',
      'orders.list',
      'orderItems.list',
      'orders.quote',
      'aois.list',
      'aois.assets',
      'aois.indexMaps',
      'indices.list',
      'visualizations.list',
      'deliveries.list',
      'jobs.list',
      'jobs.estimate',
      'created.refresh',
      'lookups.get',
      'outbox.list',
      'outbox.enqueue',
      'outbox.enqueueAll',
      'outbox.edit',
      'outbox.retry',
      'outbox.cancel',
      'outbox.confirm',
      'outbox.resend',
      'outbox.flush',
      'outbox.reviewOrders',
      'outbox.sendOrders',
      'outbox.handoverPlan',
      'outbox.handOver',
      'outbox.takeBack',
      'outbox.receiveHandover',
      'files.preview',
      'files.typedArea',
      'files.export',
      'basket.list',
      'basket.add',
      'basket.remove',
      'basket.clear',
      'catalog.ordered',
      'catalog.scenes',
      'archive.searches',
      'archive.save',
      'archive.remove',
      'archive.scenes',
      'rasters.list',
      'rasters.remove',
      'rasters.take',
      'rasters.takes',
      'rasters.cancel',
      'rasters.export',
      'rasters.pause',
      'rasters.resume',
      'rasters.link',
      'packages.plan',
      'packages.share',
      'packages.open',
    ]);
    expect(EVENT_NAMES).toEqual([
      'link.opened',
      'connectivity.changed',
      'sync.progress',
      'sync.imagery',
      'sync.finished',
      'records.changed',
      'outbox.changed',
      'outbox.progress',
      'outbox.finished',
      'basket.changed',
    ]);
    expect(Object.keys(events)).toEqual(EVENT_NAMES);
    // The preload's schema-free copy of the names.
    expect([...METHOD_NAMES]).toEqual(METHODS);
    expect([...EVENTS_ONLY]).toEqual(EVENT_NAMES);
  });

  it('turns plain error data from the preload into ContractErrors', async () => {
    const raw = {
      call: () => Promise.reject({ code: 'busy', message: 'sync running' }),
      on: () => () => undefined,
    } as unknown as Bridge;
    const e = await withContractErrors(raw)
      .call('sync.run', {})
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ContractError);
    expect((e as ContractError).code).toBe('busy');
  });

  it('does not treat prototype keys as methods', () => {
    expect(isMethod('toString')).toBe(false);
    expect(isMethod('__proto__')).toBe(false);
    expect(rejects('constructor', {}).code).toBe('unknown_method');
  });

  it('accepts undefined or {} for methods without arguments, nothing else', () => {
    expect(parseInput('settings.get', undefined)).toBeUndefined();
    expect(parseInput('settings.get', {})).toEqual({});
    expect(rejects('settings.get', { extra: 1 }).code).toBe('invalid_argument');
    expect(rejects('settings.get', 'x').code).toBe('invalid_argument');
  });

  it('rejects bad arguments with the field paths', () => {
    const e = rejects('catalog.search', { bbox: [0, 10, 1, 5], limit: 0 });
    expect(e.code).toBe('invalid_argument');
    const paths = e.details?.issues?.map((i) => i.path) ?? [];
    expect(paths).toContain('bbox.3');
    expect(paths).toContain('limit');
    expect(rejects('tiles.get', { z: 1, x: 2, y: 0 }).details?.issues?.[0]?.path).toBe('x');
    expect(rejects('settings.update', { apiKey: '' }).details?.issues?.[0]?.path).toBe('apiKey');
    expect(
      rejects('settings.update', { serviceUrl: 'https://user:pw@example.com' }).details?.issues?.[0]
        ?.path,
    ).toBe('serviceUrl');
    expect(rejects('settings.update', { tileUrl: 'https://t.example/{z}/{x}.png' }).code).toBe(
      'invalid_argument',
    );
    expect(rejects('sync.run', { resources: ['planets'] }).details?.issues?.[0]?.path).toBe(
      'resources.0',
    );
  });

  it('parses good arguments with the domain defaults', () => {
    const q = parseInput<'catalog.search'>('catalog.search', { bbox: [0, 0, 10, 10] });
    expect(q.limit).toBeGreaterThan(0);
    expect(q.offset).toBe(0);
    expect(parseInput('tiles.get', { z: 2, x: 3, y: 3 })).toEqual({ z: 2, x: 3, y: 3 });
    expect(
      parseInput('settings.update', {
        serviceUrl: 'http://127.0.0.1:8080',
        mirror: { catalog: 'none' },
      }),
    ).toEqual({ serviceUrl: 'http://127.0.0.1:8080', mirror: { catalog: 'none' } });
  });

  it('round-trips errors as plain data', () => {
    const e = new ContractError('busy', 'sync running', { issues: [{ path: 'a', message: 'b' }] });
    const back = toContractError(JSON.parse(JSON.stringify(e.toJSON())));
    expect(back).toBeInstanceOf(ContractError);
    expect(back.code).toBe('busy');
    expect(back.details?.issues).toEqual([{ path: 'a', message: 'b' }]);
    expect(toContractError(new Error('boom')).code).toBe('internal');
  });

  it('has an output schema for every method', () => {
    for (const m of METHODS) expect(contract[m].output).toBeDefined();
    const footprints = contract['catalog.footprints'].output;
    expect(footprints.safeParse({ ids: ['a'], rings: [] }).success).toBe(false);
    expect(footprints.safeParse(new Uint8Array(64)).success).toBe(false);
    const one = {
      ids: ['a'],
      offsets: Uint32Array.of(0, 3),
      coords: Float32Array.of(0, 0, 1, 0, 1, 1),
    };
    expect(footprints.safeParse(encodeFootprints(one)).success).toBe(true);
  });
});
