/** The FormatError a read ends with (the import tests' helper; not a spec file). */
import { expect } from 'vitest';
import { FormatError } from '../errors';

export async function refusal(p: Promise<unknown>): Promise<FormatError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('it was read');
}
