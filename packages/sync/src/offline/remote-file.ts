/**
 * A download's file, read by HTTP ranges from its signed URL. The URL is the permission: no
 * request here carries the API key or any header of the service's (whatever the host: the
 * service's own origin or another one), only `Range` and `If-Range`, and the `Accept-Encoding:
 * identity` a fetch adds to a range request (offsets are the file's, never a compressed body's).
 *
 * Every answer is checked before a byte is used: a 206 whose `Content-Range` starts where asked
 * and whose body has exactly the bytes announced, with the ETag the first read saw (`If-Range`
 * makes a host send the whole file instead when it changed: that is `RemoteFileChanged`, never
 * bytes of two versions). Bodies are read with a cap, so a host sending more than asked costs
 * nothing. 403 / 410 (an expired or refused signature) is `SignedUrlExpired`: read the download
 * again for a fresh URL.
 */
export class RemoteFileError extends Error {
  constructor(
    message: string,
    /** Worth trying again (the link dropped, the host was busy). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'RemoteFileError';
  }
}
/** The file behind the URL is not the one the download began with. */
export class RemoteFileChanged extends RemoteFileError {
  constructor(message: string) {
    super(message, false);
    this.name = 'RemoteFileChanged';
  }
}
/** The signed URL was refused (expired, or never valid): ask the service for a fresh one. */
export class SignedUrlExpired extends RemoteFileError {
  constructor(message: string) {
    super(message, false);
    this.name = 'SignedUrlExpired';
  }
}
/** The host does not answer ranges (a 200 with the whole file): a window cannot be read. */
export class RangesUnsupported extends RemoteFileError {
  constructor(message: string) {
    super(message, false);
    this.name = 'RangesUnsupported';
  }
}

export interface RemoteFileInfo {
  readonly size: number;
  readonly etag: string | null;
  readonly contentType: string | null;
}

/** How one request's time went (the in-flight window is sized from it, like the pager's). */
export interface RangeTiming {
  readonly waitMs: number;
  readonly bodyMs: number;
  readonly bytes: number;
}

export interface RemoteFileOptions {
  readonly fetch?: typeof fetch | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Per request, covering its body. */
  readonly timeoutMs?: number | undefined;
  /** Called with every body byte count as it arrives (progress, the bench's tally). */
  readonly onBytes?: ((n: number) => void) | undefined;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const now = () => globalThis.performance.now();

/** The URL to fetch (root-relative resolved against the service), or null when not http(s). */
export function signedFileUrl(href: string, serviceUrl: string): URL | null {
  let url: URL;
  try {
    url = new URL(href, serviceUrl.endsWith('/') ? serviceUrl : `${serviceUrl}/`);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** `bytes a-b/size` → its parts; `*` total → null size. */
function parseContentRange(v: string | null) {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(v?.trim() ?? '');
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), size: m[3] === '*' ? null : Number(m[3]) };
}

/** Reads `res`'s body, giving each chunk to `onChunk`, failing past `max` bytes. */
async function readBody(
  res: Response,
  max: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<number> {
  if (!res.body) return 0;
  const reader = res.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      if (total > max)
        throw new RemoteFileError(`the host sent more than the ${max} bytes asked for`, false);
      onChunk(value);
    }
  } finally {
    reader.releaseLock();
    await res.body.cancel().catch(() => undefined);
  }
}

export interface RemoteFile {
  readonly url: URL;
  /** Known after `open`. */
  readonly info: RemoteFileInfo;
  /** Bytes received from the host by this reader. */
  readonly fetchedBytes: number;
  /** Requests sent by this reader. */
  readonly requests: number;
  /**
   * `length` bytes from `offset` (fewer at the end of the file), each chunk to `onChunk` as it
   * arrives (a caller can keep what came before a cut). Resolves to the timing.
   */
  readRange(
    offset: number,
    length: number,
    onChunk: (chunk: Uint8Array) => void,
  ): Promise<RangeTiming>;
  /** The bytes of one range, whole. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/**
 * Opens the file by reading its first `firstBytes` (one request): learns its size, ETag and
 * type. `expect` (a resumed download's) must match, else `RemoteFileChanged`.
 */
export async function openRemoteFile(
  url: URL,
  firstBytes: number,
  options: RemoteFileOptions & { expect?: { etag: string | null; size: number } | undefined } = {},
): Promise<{ file: RemoteFile; head: Uint8Array; headTiming: RangeTiming }> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  /** Set by the first read. */
  const known: { info?: RemoteFileInfo } = {};
  let fetchedBytes = 0;
  let requests = 0;

  async function get(offset: number, length: number): Promise<Response> {
    // A fetch asked for a range sends `Accept-Encoding: identity` by itself (Fetch standard).
    const headers: Record<string, string> = { range: `bytes=${offset}-${offset + length - 1}` };
    const etag = known.info?.etag ?? options.expect?.etag;
    // If-Range takes a strong validator only.
    if (etag && !etag.startsWith('W/')) headers['if-range'] = etag;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    requests += 1;
    let res: Response;
    try {
      res = await doFetch(url, { headers, signal, redirect: 'follow' });
    } catch (e) {
      if (options.signal?.aborted) throw e;
      throw new RemoteFileError(`${url.host}: ${e instanceof Error ? e.message : String(e)}`, true);
    }
    if (res.status === 403 || res.status === 410 || res.status === 401) {
      await res.body?.cancel();
      throw new SignedUrlExpired(`${url.host} refused the signed URL (HTTP ${res.status})`);
    }
    if (res.status === 416) {
      await res.body?.cancel();
      throw new RemoteFileChanged(
        `${url.host}: range ${offset}-${offset + length - 1} is past the end of the file`,
      );
    }
    if (res.status === 408 || res.status === 429 || res.status >= 500) {
      await res.body?.cancel();
      throw new RemoteFileError(`${url.host}: HTTP ${res.status}`, true);
    }
    if (res.status !== 206 && res.status !== 200) {
      await res.body?.cancel();
      throw new RemoteFileError(`${url.host}: HTTP ${res.status}`, false);
    }
    return res;
  }

  function check(res: Response, offset: number, length: number): { start: number; end: number } {
    const etag = res.headers.get('etag');
    const wanted = known.info?.etag ?? options.expect?.etag ?? null;
    if (res.status === 200) {
      // A whole file: the host ignored the range, or If-Range said the file changed.
      if (wanted !== null && etag !== wanted)
        throw new RemoteFileChanged(`${url.host}: the file changed (ETag ${etag} was ${wanted})`);
      const size = Number(res.headers.get('content-length') ?? Number.NaN);
      if (offset === 0 && Number.isFinite(size) && size <= length)
        return { start: 0, end: size - 1 };
      throw new RangesUnsupported(`${url.host} answers byte ranges with the whole file`);
    }
    const range = parseContentRange(res.headers.get('content-range'));
    if (
      !range ||
      range.start !== offset ||
      range.end > offset + length - 1 ||
      range.end < range.start
    )
      throw new RemoteFileError(
        `${url.host}: Content-Range ${res.headers.get('content-range')} for bytes ${offset}-${offset + length - 1}`,
        false,
      );
    if (wanted !== null && etag !== null && etag !== wanted)
      throw new RemoteFileChanged(`${url.host}: the file changed (ETag ${etag} was ${wanted})`);
    if (known.info && range.size !== null && range.size !== known.info.size)
      throw new RemoteFileChanged(
        `${url.host}: the file is ${range.size} bytes, was ${known.info.size}`,
      );
    return range;
  }

  async function readRange(
    offset: number,
    length: number,
    onChunk: (chunk: Uint8Array) => void,
  ): Promise<RangeTiming> {
    const sent = now();
    const res = await get(offset, length);
    const head = now();
    const { start, end } = check(res, offset, length);
    const want = end - start + 1;
    let got = 0;
    try {
      got = await readBody(res, want, (c) => {
        fetchedBytes += c.byteLength;
        options.onBytes?.(c.byteLength);
        onChunk(c);
      });
    } catch (e) {
      if (options.signal?.aborted || e instanceof RemoteFileError) throw e;
      throw new RemoteFileError(
        `${url.host}: the body was cut off (${e instanceof Error ? e.message : String(e)})`,
        true,
      );
    }
    if (got !== want)
      throw new RemoteFileError(
        `${url.host}: the body was cut off at ${got} of ${want} bytes`,
        true,
      );
    return { waitMs: head - sent, bodyMs: now() - head, bytes: got };
  }

  async function read(offset: number, length: number): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    await readRange(offset, length, (c) => chunks.push(c));
    return Buffer.concat(chunks);
  }

  // The first read: size, ETag and type.
  const headChunks: Uint8Array[] = [];
  const sent = now();
  const res = await get(0, firstBytes);
  const headAt = now();
  const etag = res.headers.get('etag');
  const expected = options.expect;
  const range = res.status === 206 ? parseContentRange(res.headers.get('content-range')) : null;
  const size =
    res.status === 206
      ? (range?.size ?? null)
      : Number(res.headers.get('content-length') ?? Number.NaN);
  if (size === null || !Number.isFinite(size)) {
    await res.body?.cancel();
    throw new RemoteFileError(`${url.host} does not say how big the file is`, false);
  }
  if (expected && (expected.size !== size || (expected.etag !== null && expected.etag !== etag))) {
    await res.body?.cancel();
    throw new RemoteFileChanged(`${url.host}: the file changed since the download began`);
  }
  known.info = { size, etag, contentType: res.headers.get('content-type') };
  if (res.status === 200 && size > firstBytes) {
    // The host ignores Range: say so before reading a whole file here.
    await res.body?.cancel();
    throw new RangesUnsupported(`${url.host} answers byte ranges with the whole file`);
  }
  const { start, end } = check(res, 0, firstBytes);
  const want = end - start + 1;
  const got = await readBody(res, want, (c) => {
    fetchedBytes += c.byteLength;
    options.onBytes?.(c.byteLength);
    headChunks.push(c);
  });
  if (got !== want)
    throw new RemoteFileError(`${url.host}: the body was cut off at ${got} of ${want} bytes`, true);
  const file: RemoteFile = {
    url,
    get info() {
      return known.info!;
    },
    get fetchedBytes() {
      return fetchedBytes;
    },
    get requests() {
      return requests;
    },
    readRange,
    read,
  };
  const headTiming = { waitMs: headAt - sent, bodyMs: now() - headAt, bytes: got };
  return { file, head: Buffer.concat(headChunks), headTiming };
}
