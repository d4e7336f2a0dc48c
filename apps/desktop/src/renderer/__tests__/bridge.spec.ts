import { afterEach, describe, expect, it } from 'vitest';
import { decodeFootprints, encodeFootprints, joinedIds } from '../../shared/contract';
import { createHttpBridge, readToken, selectBridge, TOKEN_STORAGE_KEY } from '../bridge';
import { createMemoryBridge } from './memory-bridge';

afterEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('readToken', () => {
  it('takes the token from the fragment, keeps it for reloads and removes it from the URL', () => {
    history.replaceState(null, '', '/index.html?x=1#token=s3cr3t-t0ken&view=map');
    expect(readToken({ location, history, storage: sessionStorage })).toBe('s3cr3t-t0ken');
    expect(location.hash).toBe('#view=map');
    expect(location.pathname + location.search).toBe('/index.html?x=1');
    expect(location.href).not.toContain('s3cr3t');
    expect(sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('s3cr3t-t0ken');
    // A reload: no fragment any more, the stored token is used.
    expect(readToken({ location, history, storage: sessionStorage })).toBe('s3cr3t-t0ken');
  });

  it('prefers a new token in the URL over a stored one (the app was restarted)', () => {
    sessionStorage.setItem(TOKEN_STORAGE_KEY, 'old');
    history.replaceState(null, '', '/#token=new');
    expect(readToken({ location, history, storage: sessionStorage })).toBe('new');
    expect(location.hash).toBe('');
  });

  it('has no token without a fragment or storage', () => {
    history.replaceState(null, '', '/#view=map');
    expect(readToken({ location, history, storage: sessionStorage })).toBeNull();
  });
});

describe('selectBridge', () => {
  it('uses the Electron preload bridge when there is one', () => {
    const eo = createMemoryBridge({ records: 1 });
    const choice = selectBridge(Object.assign(Object.create(window) as Window, { eo }));
    expect(choice).toMatchObject({ ok: true, mode: 'electron' });
  });

  it('falls back to browser mode with the token, or explains what is missing', () => {
    history.replaceState(null, '', '/');
    const none = selectBridge(window);
    expect(none.ok).toBe(false);
    expect(!none.ok && none.reason).toMatch(/#token=/);
    history.replaceState(null, '', '/#token=abc');
    const http = selectBridge(window);
    expect(http).toMatchObject({ ok: true, mode: 'browser' });
  });
});

describe('withContractErrors on the preload bridge', () => {
  it('turns the preload’s plain error data back into readable errors', async () => {
    const { readableError } = await import('../stores/errors');
    const eo = createMemoryBridge({ records: 1 });
    const raw = {
      call: () => Promise.reject({ code: 'offline', message: 'service unreachable' }),
      on: eo.on,
    } as unknown as typeof eo;
    const choice = selectBridge(Object.assign(Object.create(window) as Window, { eo: raw }));
    if (!choice.ok) throw new Error('expected a bridge');
    const err = await choice.bridge.call('settings.get').catch((e: unknown) => e);
    expect(readableError(err)).toMatchObject({
      code: 'offline',
      title: 'The service is not reachable',
      message: 'service unreachable',
    });
  });
});

describe('the HTTP bridge', () => {
  /** A fetch answering one response. */
  const answer = (body: BodyInit, contentType: string, status = 200) =>
    (() =>
      Promise.resolve(
        new Response(body, { status, headers: { 'content-type': contentType } }),
      )) as unknown as typeof fetch;

  it('hands a binary answer (catalog.footprints) over as bytes, not parsed as JSON', async () => {
    const sent = encodeFootprints({
      ...joinedIds(['a']),
      offsets: Uint32Array.of(0, 3),
      coords: Float32Array.of(0, 0, 1, 0, 1, 1),
    });
    const bridge = createHttpBridge({
      baseUrl: '',
      token: 't',
      fetch: answer(sent, 'application/octet-stream'),
    });
    const got = await bridge.call('catalog.footprints', {});
    expect(got).toBeInstanceOf(Uint8Array);
    expect(decodeFootprints(got).ids).toEqual(['a']);
  });

  it('reads errors as JSON envelopes still', async () => {
    const envelope = JSON.stringify({
      ok: false,
      error: { code: 'invalid_argument', message: 'bad bbox' },
    });
    const bridge = createHttpBridge({
      baseUrl: '',
      token: 't',
      fetch: answer(envelope, 'application/json; charset=utf-8', 400),
    });
    await expect(bridge.call('catalog.footprints', {})).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });
});
