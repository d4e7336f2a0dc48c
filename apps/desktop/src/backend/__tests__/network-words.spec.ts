/**
 * Network failures in plain words (issue 26: the indicator showed `connect ECONNREFUSED
 * 127.0.0.1:…`): the connectivity state says what happened and what to check, the code stays in
 * `details`; "Submit all" says the same. Against a real port that nothing listens on.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { networkWords, unreachable } from '../network-words';
import { errorOf, startBackend } from './harness';

/** A 127.0.0.1 port that refuses connections: taken from the system, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('network failures in words', () => {
  it('says a refused connection in words, keeping the code in details, and so does Submit all', async () => {
    const port = await closedPort();
    const t = startBackend({ connectivityIntervalMs: 60_000 });
    try {
      await t.call('settings.update', { serviceUrl: `http://127.0.0.1:${port}`, apiKey: 'k-1' });
      const c = await t.call('connectivity.check');
      expect(c.state).toBe('offline');
      expect(c.message).toBe(
        'The service cannot be reached: nothing answers at its address (the service is not running there, or the address or port is wrong). Searches use the local mirror.',
      );
      expect(c.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|fetch failed/);
      expect(c.details).toBe('ECONNREFUSED');

      await t.call('outbox.enqueue', {
        kind: 'job',
        input: { workflow_id: 'wf-1', project_id: 'prj-1' },
      });
      const refused = await errorOf(t, 'outbox.flush', {});
      expect(refused.code).toBe('offline');
      expect(refused.message).toMatch(
        /^The service cannot be reached: nothing answers at its address \(.*\) \[ECONNREFUSED\]\. Nothing was sent/,
      );
      expect(refused.message).not.toMatch(/127\.0\.0\.1|fetch failed/);
    } finally {
      await t.close();
    }
  });

  it('reads the codes of Node and undici, and says something for anything else', () => {
    const cases: Array<[string, string, string]> = [
      [
        'GET /v0/x: network error: fetch failed (ENOTFOUND: getaddrinfo ENOTFOUND eo.example)',
        'its host name is not known',
        'ENOTFOUND',
      ],
      [
        'network error: fetch failed (UND_ERR_SOCKET: other side closed)',
        'the connection was cut off',
        'UND_ERR_SOCKET',
      ],
      [
        'GET /v0/x: no complete response within 2000 ms',
        'it did not answer in time',
        'GET /v0/x: no complete response within 2000 ms',
      ],
      [
        'network error: fetch failed (EHOSTUNREACH: connect EHOSTUNREACH 10.0.0.1:443)',
        'this computer has no route to it',
        'EHOSTUNREACH',
      ],
      [
        'network error: fetch failed (CERT_HAS_EXPIRED: certificate has expired)',
        'its HTTPS certificate is not trusted',
        'CERT_HAS_EXPIRED',
      ],
      ['something odd', 'the network request failed', 'something odd'],
    ];
    for (const [message, words, technical] of cases) {
      const w = networkWords(message);
      expect(w.words.startsWith(words), message).toBe(true);
      expect(w.technical).toBe(technical);
    }
    expect(networkWords(undefined)).toEqual({
      words: 'the network request failed',
      technical: 'no reason given',
    });
    // A hostile, huge message is read only in part.
    expect(networkWords('x'.repeat(1_000_000)).technical.length).toBeLessThanOrEqual(500);
    expect(unreachable('fetch failed (ECONNRESET: read ECONNRESET)')).toBe(
      'the connection was cut off [ECONNRESET]',
    );
    expect(unreachable('no complete response within 10 ms')).toBe('it did not answer in time');
  });
});
