/**
 * `connectivity.*`: is the configured service there, with the key, right now; and the
 * operating system's network signals, which bring the watcher's next check forward.
 */
import type { connectionMethods } from './contract';
import type { ServiceConnection } from '../../backend/connection';
import type { HandlersFor } from '../../backend/dispatch';

export type ConnectionHandlers = HandlersFor<keyof typeof connectionMethods>;

export function connectionHandlers(connection: ServiceConnection): ConnectionHandlers {
  return {
    'connectivity.check': () => connection.checkNow(),
    'connectivity.networkChanged': () => ({ scheduled: connection.checkSoon() }),
  };
}
