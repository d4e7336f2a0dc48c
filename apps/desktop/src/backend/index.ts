/** The desktop backend: plain Node, used by Electron's utilityProcess and by browser mode. */
export { createBackend, MIRROR_FILE, type Backend, type BackendOptions } from './backend';
export { dispatch, type Handlers } from './dispatch';
export type { BackendEvents } from './events';
export { fileSecrets, memorySecrets, type Secrets } from './secrets';
