import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createLinkRelay, linkArgument, registerLinkScheme } from '../record-links';

describe('record links in main', () => {
  it('finds the link among the arguments Windows and Linux start the app with', () => {
    expect(linkArgument(['/opt/eo', '--no-sandbox', 'EO-FIELD-DESK://aoi/a-1'])).toBe(
      'EO-FIELD-DESK://aoi/a-1',
    );
    expect(linkArgument(['/opt/eo', 'https://eo-field-desk://x', 42])).toBeNull();
  });

  it('holds a link until the page listens, then passes each parsed link; refuses the rest', () => {
    const send = vi.fn();
    const refuse = vi.fn();
    const relay = createLinkRelay({ send, refuse });
    relay.open('eo-field-desk://scene/early');
    relay.open('eo-field-desk://aoi/later');
    expect(send).not.toHaveBeenCalled();
    relay.ready();
    expect(send.mock.calls).toEqual([[{ kind: 'aoi', id: 'later' }]]); // the last one wins
    relay.open('eo-field-desk://order/o-2');
    expect(send).toHaveBeenLastCalledWith({ kind: 'order', id: 'o-2' });
    relay.unready();
    relay.open('eo-field-desk://order/o-3');
    expect(send).toHaveBeenCalledTimes(2);
    relay.open('eo-field-desk://scene/a b');
    relay.open({ kind: 'scene', id: 'x' });
    expect(refuse.mock.calls.map((c) => c[0])).toEqual([
      expect.stringMatching(/not a record id/),
      'not a link',
    ]);
  });

  it('registers the scheme (with the script in development), takes open-url and the first link', () => {
    const on = vi.fn();
    const setAsDefaultProtocolClient = vi.fn(() => true);
    const relay = { open: vi.fn() };
    registerLinkScheme({ on, setAsDefaultProtocolClient }, relay, {
      defaultApp: true,
      execPath: '/usr/bin/electron',
      argv: ['/usr/bin/electron', 'out/main/index.js', 'eo-field-desk://scene/S1'],
    });
    expect(setAsDefaultProtocolClient).toHaveBeenCalledWith('eo-field-desk', '/usr/bin/electron', [
      path.resolve('out/main/index.js'),
    ]);
    expect(relay.open).toHaveBeenCalledWith('eo-field-desk://scene/S1');
    const [event, listener] = on.mock.calls[0] as unknown as [
      string,
      (e: { preventDefault(): void }, url: string) => void,
    ];
    expect(event).toBe('open-url');
    const preventDefault = vi.fn();
    listener({ preventDefault }, 'eo-field-desk://order/o-1');
    expect(preventDefault).toHaveBeenCalled();
    expect(relay.open).toHaveBeenLastCalledWith('eo-field-desk://order/o-1');

    const packaged = vi.fn(() => true);
    registerLinkScheme({ on, setAsDefaultProtocolClient: packaged }, relay, {
      execPath: '/opt/eo/eo-field-desk',
      argv: ['/opt/eo/eo-field-desk'],
    });
    expect(packaged).toHaveBeenCalledWith('eo-field-desk');
  });
});
