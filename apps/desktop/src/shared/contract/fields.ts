/** Pieces every area of the contract uses. */
import { z } from 'zod';

/** Methods that take no argument accept `undefined` or `{}` (IPC and JSON bodies differ). */
export const none = z.object({}).strict().optional();

/** An id in an argument: a record's, an outbox entry's, a saved search's. */
export const id = z.string().trim().min(1).max(200);

export const byId = z.object({ id }).strict();
