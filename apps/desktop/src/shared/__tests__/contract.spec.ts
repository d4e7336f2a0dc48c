import { describe, expect, it } from 'vitest';
import {
  ContractError,
  encodeFootprints,
  joinedIds,
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
import * as everything from '../contract';

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
  it('is the union of its areas, no name shadowed by another area', () => {
    // The contract's keys are the one list of names (main hands them to the preload): an area
    // spreading a name another area already has would silently replace its schemas.
    const areas = Object.entries(everything);
    const methodAreas = areas.filter(([k]) => k.endsWith('Methods')).map(([, v]) => v);
    const eventAreas = areas.filter(([k]) => k.endsWith('Events')).map(([, v]) => v);
    const count = (xs: unknown[]) =>
      xs.reduce<number>((n, x) => n + Object.keys(x as object).length, 0);
    expect(methodAreas.length).toBeGreaterThan(10);
    expect(count(methodAreas)).toBe(METHODS.length);
    expect(count(eventAreas)).toBe(EVENT_NAMES.length);
    expect(METHODS).toEqual(Object.keys(contract));
    expect(EVENT_NAMES).toEqual(Object.keys(events));
    for (const name of [...METHODS, ...EVENT_NAMES])
      expect(name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
    expect(METHODS).toContain('catalog.search');
    expect(EVENT_NAMES).toContain('outbox.changed');
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
      ...joinedIds(['a']),
      offsets: Uint32Array.of(0, 3),
      coords: Float32Array.of(0, 0, 1, 0, 1, 1),
    };
    expect(footprints.safeParse(encodeFootprints(one)).success).toBe(true);
  });
});
