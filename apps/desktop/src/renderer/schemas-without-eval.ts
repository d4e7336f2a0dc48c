/**
 * Zod's schemas here parse without compiling code at run time. Left to itself, zod 4 asks once
 * whether it may (`new Function('')`, on the first object schema built) so that it can compile a
 * fast path per object schema. The page's Content-Security-Policy forbids it (no 'unsafe-eval',
 * shared/csp.ts), so the answer is always no; asking made Chromium report a violation of it on
 * every launch (about 2 ms of the first screen's script in page profiles). Imported first by
 * each script's entry (main.ts; the raster worker, which has a zod of its own): modules are
 * evaluated in import order, and the first object schema is built while the entry's imports load.
 */
import { config } from 'zod';

config({ jitless: true });
