/**
 * The text each record of a list page was read from, for a caller that stores records as text
 * (the sync's mirror): taking the page's own characters costs a scan of them, where
 * `JSON.stringify` of the parsed record costs about five times as much (a record of ~1.6 kB:
 * ~2.5 against ~13 µs) and writes it out in another spelling than the service's.
 *
 * Kept only for records the client hands on exactly as they were parsed (`Sent.decodeAsReceived`:
 * no default filled in, no id coerced, no part rewritten by zod), on request
 * (`PageOptions.itemTexts`), and only while the record object lives (a WeakMap keyed by it).
 */

const texts = new WeakMap<object, string>();

/** The text `item` was parsed from, when its page kept it and the item is unchanged since. */
export function receivedTextOf(item: unknown): string | undefined {
  return typeof item === 'object' && item !== null ? texts.get(item) : undefined;
}

/**
 * Remembers, for each of `items` (the elements of the top-level member `key` of the JSON object
 * `text`, as parsed and handed on unchanged), its text in `text`. Does nothing when the text's
 * elements cannot be matched one to one with `items`.
 */
export function keepItemTexts(text: string, key: string, items: readonly unknown[]): void {
  const found = memberElementTexts(text, key);
  if (found === undefined || found.length !== items.length) return;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'object' && item !== null) texts.set(item, found[i]!);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Index after the string whose opening quote is at `at`; -1 when it never closes. */
function stringEnd(text: string, at: number): number {
  let j = at + 1;
  for (;;) {
    j = text.indexOf('"', j);
    if (j < 0) return -1;
    // A quote preceded by an odd number of backslashes is escaped.
    let b = j - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((j - 1 - b) % 2 === 0) return j + 1;
    j++;
  }
}

/** Index after the JSON value starting at `at` (no leading space); -1 when it is cut off. */
function valueEnd(text: string, at: number): number {
  const n = text.length;
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let i = at;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The texts of the elements of the array that is member `key` of the JSON object `text` (valid
 * JSON, as `JSON.parse` accepted it), in order; undefined when the text is not such an object,
 * the member is missing or not an array, or the key appears more than once (`JSON.parse` keeps
 * the last; a one-to-one match is not worth guessing).
 */
export function memberElementTexts(text: string, key: string): string[] | undefined {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  let result: string[] | undefined;
  let seen = false;
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return undefined;
    const raw = text.slice(i + 1, keyEnd - 1);
    const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(text, i + 1);
    if (name === key) {
      if (seen) return undefined;
      seen = true;
      const list = arrayElements(text, i);
      if (list === undefined) return undefined;
      result = list.texts;
      i = list.end;
    } else {
      i = valueEnd(text, i);
      if (i < 0) return undefined;
    }
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (c === COMMA) i = skipSpace(text, i + 1);
    else if (c === CLOSE_BRACE) return result;
    else return undefined;
  }
  return text.charCodeAt(i) === CLOSE_BRACE ? result : undefined;
}

function arrayElements(text: string, at: number): { texts: string[]; end: number } | undefined {
  if (text.charCodeAt(at) !== OPEN_BRACKET) return undefined;
  const out: string[] = [];
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return { texts: out, end: i + 1 };
  while (i < text.length) {
    const end = valueEnd(text, i);
    if (end < 0) return undefined;
    out.push(text.slice(i, end));
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACKET) return { texts: out, end: i + 1 };
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}
