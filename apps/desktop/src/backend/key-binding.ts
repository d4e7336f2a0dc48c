/**
 * The API key belongs to the service it was entered for: it is kept in the keyring
 * (keyring.ts) under that URL's origin (scheme, host, port), or under the embedded service
 * (whose port changes every launch). A key is only ever read for the service it is kept for,
 * so a new service URL on another origin never receives it, and coming back to a service finds
 * its key again. Plain http is refused for any service but this machine's (`keyTransportProblem`).
 * The renderer learns origins and booleans from here, never a key.
 */
import { originOf } from '@eo/api-client';
import { openKeyring } from './keyring';
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
  const { embeddedUrl } = options;

  /** What a key entered for `serviceUrl` (null: the embedded service, if any) is bound to. */
  function bindingFor(serviceUrl: string | null): string | null {
    if (serviceUrl !== null) return originOf(serviceUrl);
    return embeddedUrl !== null ? EMBEDDED_BINDING : null;
  }
  const ring = openKeyring(options.secrets, options.store, bindingFor(null));

  return {
    bindingFor,
    /** The key for `serviceUrl`, or null when none is kept for it. */
    keyFor(serviceUrl: string | null): string | null {
      const binding = bindingFor(serviceUrl);
      return binding === null ? null : ring.get(binding);
    },
    /**
     * Whether a key is kept for `serviceUrl`, or (no service at all) one was entered before any
     * service was set: it goes to the first service URL entered.
     */
    isSet(serviceUrl: string | null): boolean {
      const binding = bindingFor(serviceUrl);
      return binding === null ? ring.unbound() !== null : ring.get(binding) !== null;
    },
    /** The services (origins, or `embedded`) a key is kept for. */
    keptFor: (): string[] => ring.services(),
    /**
     * A key entered for `serviceUrl`; null forgets it. A key entered before any service was
     * waiting for this first one: the key given with it replaces it.
     */
    set(key: string | null, serviceUrl: string | null): void {
      const binding = bindingFor(serviceUrl);
      if (binding === null) return ring.setUnbound(key);
      ring.set(binding, key);
      if (ring.unbound() !== null) ring.setUnbound(null);
    },
    /** Forgets the key kept for `service` (a binding). Returns whether one was kept. */
    forget(service: string): boolean {
      if (ring.get(service) === null) return false;
      ring.set(service, null);
      return true;
    },
    /**
     * The service URL changed to `serviceUrl`: a key entered before any service goes to it
     * (unless it has one already); the keys of other services stay kept for them. Returns
     * whether the key in use changed (always, when the service did: the caller knows).
     */
    follow(serviceUrl: string | null): boolean {
      const binding = bindingFor(serviceUrl);
      const waiting = ring.unbound();
      if (binding === null || waiting === null) return false;
      if (ring.get(binding) === null) ring.set(binding, waiting);
      ring.setUnbound(null);
      return true;
    },
  };
}
