/**
 * Paths that try to leave the renderer's folder (`..` raw, encoded, and through a subfolder):
 * both hosts of the renderer's files (browser mode over HTTP, Electron's app scheme) refuse
 * every one of them, through `renderer-files.ts`.
 */
export const ESCAPING_PATHS: readonly string[] = [
  '/../secret.txt',
  '/..%2fsecret.txt',
  '/%2e%2e/secret.txt',
  '/assets/..%2f..%2fsecret.txt',
];
