/**
 * The API key belongs to the service it was entered for: it is bound to that URL's origin
 * (scheme, host, port), or to the embedded service (whose port changes every launch). The key
 * is only ever read for the service it is bound to, so a new service URL on another origin
 * never receives it: changing the origin forgets the key and Settings asks for one again.
 * Plain http is refused for any service but this machine's (`keyTransportProblem`).
 */
import { keyTransportProblem, originOf } from '@eo/api-client';
import type { DesktopStore } from './local-store';
import type { Secrets } from './secrets';

/** The binding of a key entered while the embedded reference service is in use. */
export const EMBEDDED_BINDING = 'embedded';

export function makeKeyBinding(options: {
  readonly secrets: Secrets;
  readonly store: DesktopStore;
  /** The embedded service's URL, used while no service URL is configured. */
  readonly embeddedUrl: string | null;
}) {
  const { secrets, store, embeddedUrl } = options;

  /** What a key entered for `serviceUrl` (null: the embedded service, if any) is bound to. */
  function bindingFor(serviceUrl: string | null): string | null {
    if (serviceUrl !== null) return originOf(serviceUrl);
    return embeddedUrl !== null ? EMBEDDED_BINDING : null;
  }

  // A key stored before keys were bound: it was used with the configured service, bind it there;
  // one that went over plain http to another machine is forgotten (enter a new one, for https).
  if (store.keyBinding() === undefined && secrets.get() !== null) {
    const url = store.settings().serviceUrl;
    if (url !== null && keyTransportProblem(url)) secrets.set(null);
    store.saveKeyBinding(secrets.get() === null ? null : bindingFor(url));
  }

  return {
    bindingFor,
    /** The key for `serviceUrl`, or null when none is stored for it. */
    keyFor(serviceUrl: string | null): string | null {
      const binding = bindingFor(serviceUrl);
      if (binding === null || store.keyBinding() !== binding) return null;
      return secrets.get();
    },
    /**
     * Whether a key is stored for `serviceUrl`, or entered before any service was set (it
     * goes to the first service URL entered).
     */
    isSet(serviceUrl: string | null): boolean {
      if (secrets.get() === null) return false;
      const binding = store.keyBinding();
      return binding === null || binding === bindingFor(serviceUrl);
    },
    /** A key entered for `serviceUrl`; null forgets it. */
    set(key: string | null, serviceUrl: string | null): void {
      secrets.set(key);
      store.saveKeyBinding(key === null ? null : bindingFor(serviceUrl));
    },
    /**
     * The service URL changed to `serviceUrl`: a key entered before any service is bound to it;
     * a key bound elsewhere is forgotten (the user enters the new service's key). Returns
     * whether the key changed.
     */
    follow(serviceUrl: string | null): boolean {
      const binding = store.keyBinding();
      if (secrets.get() === null || binding === bindingFor(serviceUrl)) return false;
      if (binding === null) {
        store.saveKeyBinding(bindingFor(serviceUrl));
        return true;
      }
      secrets.set(null);
      store.saveKeyBinding(null);
      return true;
    },
  };
}
