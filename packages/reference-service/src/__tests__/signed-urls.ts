/** Signed asset URLs differ per organisation (`org` is signed in): compared without them. */
export function withoutSignatures(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body).replace(/\?expires=\d+&org=[^&"]*&signature=[\w-]+/g, '?<signed>'),
  );
}

/**
 * A signed query with its signature's first character changed, always to another one (a
 * fixed replacement would leave 1 signature in 64 untouched, and signatures change with time).
 */
export const withTamperedSignature = (query: string): string =>
  query.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);
