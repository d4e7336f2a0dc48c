/**
 * Where the stored API key is, in words that are true for how the backend keeps it (Settings
 * used to say "encrypted" in browser mode, where it is a plain-text file only the user can read).
 */
import type { KeyStorage } from '../../shared/contract';

export function storedKeyText(storage: KeyStorage): string {
  switch (storage) {
    case 'os-keychain':
      return 'A key is stored on this computer, encrypted with the system keychain.';
    case 'obfuscated':
      return 'A key is stored on this computer, only obfuscated: no system keyring was found to encrypt it.';
    case 'owner-only-file':
      return 'A key is stored on this computer in a file only you can read (not encrypted).';
    case 'this-session-only':
      return 'A key is held until the app quits: the system keychain is not available to store it.';
  }
}

/** A service a key is kept for, as Settings names it (`embedded`: the built-in demo service). */
export function keyServiceName(service: string): string {
  return service === 'embedded' ? 'the built-in demo service' : service;
}
