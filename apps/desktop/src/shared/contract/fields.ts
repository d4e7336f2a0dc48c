/** Pieces every area of the contract uses. */
import { z } from 'zod';
import { MAX_IMPORT_BASE64_CHARS } from '../file-limits';

/** Methods that take no argument accept `undefined` or `{}` (IPC and JSON bodies differ). */
export const none = z.object({}).strict().optional();

/** An id in an argument: a record's, an outbox entry's, a saved search's. */
export const id = z.string().trim().min(1).max(200);

export const byId = z.object({ id }).strict();

/** A picked file's name as the page sends it: no folders. */
export const fileName = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((n) => !/[\\/]/.test(n), 'a file name, without folders');

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A picked file's bytes as base64 text, at most the app's import limit (`tooLarge` says what
 * to do with a larger one); an oversize text is refused by its length, never scanned.
 */
export const fileBase64 = (tooLarge: string) =>
  z
    .string()
    .max(MAX_IMPORT_BASE64_CHARS, { message: tooLarge })
    .refine(
      (s) => s.length > MAX_IMPORT_BASE64_CHARS || (s.length % 4 === 0 && BASE64.test(s)),
      'not base64 text',
    );
