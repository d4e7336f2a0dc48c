/**
 * A network failure in plain words (issue 26: the indicator said `connect ECONNREFUSED
 * 127.0.0.1:8080`). The client's messages carry Node's and undici's codes; a field team reads
 * what happened and what to check, and the code stays for a tooltip or a support call.
 */

/** Codes (and the client's own phrases) to words, first match wins. */
const WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /ECONNREFUSED/,
    'nothing answers at its address (the service is not running there, or the address or port is wrong)',
  ],
  [
    /ENOTFOUND|EAI_AGAIN|EAI_NONAME/,
    'its host name is not known (check the address, or whether this computer is on a network)',
  ],
  [
    /ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN/,
    'this computer has no route to it (check the network connection)',
  ],
  [/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|no complete response within/, 'it did not answer in time'],
  [
    /ECONNRESET|EPIPE|socket hang up|UND_ERR_SOCKET|response body cut off/,
    'the connection was cut off',
  ],
  [/CERT_|certificate|self[- ]signed|SSL|TLS/i, 'its HTTPS certificate is not trusted'],
];

/** The code a message names (`ECONNREFUSED`, `UND_ERR_SOCKET`, `CERT_HAS_EXPIRED`). */
const CODE = /\b(E[A-Z]{2,}(?:_[A-Z]+)*|UND_ERR_[A-Z_]+|CERT_[A-Z_]+)\b/;

export interface NetworkWords {
  /** What happened, in words: "nothing answers at its address (…)". */
  readonly words: string;
  /** The technical reason, for a title or details: the code, else the message itself. */
  readonly technical: string;
}

/** `message` (a client error's, its request line stripped or not) in plain words. */
export function networkWords(message: string | undefined): NetworkWords {
  const raw = (message ?? '').slice(0, 500);
  const technical = CODE.exec(raw)?.[1] ?? (raw || 'no reason given');
  for (const [pattern, words] of WORDS) if (pattern.test(raw)) return { words, technical };
  return { words: 'the network request failed', technical };
}

/** For a one-line message with no room for details: the words, the code in brackets. */
export function unreachable(message: string | undefined): string {
  const { words, technical } = networkWords(message);
  return CODE.test(technical) ? `${words} [${technical}]` : words;
}
