/**
 * The connectivity states the screens show, in words: not set up, working offline, and what a
 * check found (online, the key refused, unreachable, an error). Also when a request's outcome is
 * news about the service (`connection.ts` checks at once then).
 */
import type { ResponseEvent } from '@eo/api-client';
import type { ConnectivityCheck } from '@eo/sync';
import type { Connectivity } from '../shared/contract';
import { networkWords } from './network-words';
import { WORKING_OFFLINE } from './no-service';

export function unconfigured(): Connectivity {
  const now = new Date().toISOString();
  return {
    state: 'unconfigured',
    checkedAt: now,
    since: now,
    message: 'No service URL or API key yet: enter them in Settings.',
  };
}

export function workingOffline(): Connectivity {
  const now = new Date().toISOString();
  return { state: 'working-offline', checkedAt: now, since: now, message: WORKING_OFFLINE };
}

/** A client error's message without the request line (`GET /v0/indices?limit=1: `) it starts with. */
function reason(message: string | undefined): string | undefined {
  return message?.replace(/^[A-Z]+ \/\S*: /, '');
}

export function fromCheck(c: ConnectivityCheck): Connectivity {
  const checkedAt = new Date().toISOString();
  const since = checkedAt;
  switch (c.status) {
    case 'online':
      return { state: 'online', checkedAt, since };
    case 'unauthorized':
      return {
        state: 'unauthorized',
        checkedAt,
        since,
        message: 'The service refused the API key: enter a valid key in Settings.',
      };
    case 'offline': {
      const why = networkWords(reason(c.message));
      return {
        state: 'offline',
        checkedAt,
        since,
        message: `The service cannot be reached: ${why.words}. Searches use the local mirror.`,
        details: why.technical,
      };
    }
    default:
      return {
        state: 'offline',
        checkedAt,
        since,
        message: `The service answered with an error (${reason(c.message) ?? 'unknown'}); searches use the local mirror.`,
      };
  }
}

/**
 * A request that finally failed for want of an answer while the state reads online, or one that
 * was answered while it reads offline, is news: the service is checked at once. One failed
 * request is not proof; the check decides.
 */
export function isNews(e: ResponseEvent, state: Connectivity['state']): boolean {
  const unanswered = (e.error === 'network' || e.error === 'timeout') && e.retryInMs === undefined;
  const answered = e.status !== undefined && e.status < 500 && e.status !== 401;
  return (unanswered && state === 'online') || (answered && state === 'offline');
}
