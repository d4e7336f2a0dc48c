/** Writes an export (text or bytes, made by @eo/formats) to stdout or to `--out FILE`. */
import fs from 'node:fs';
import { CliFailure } from '../context';
import { resolvePath, type CliIo } from '../io';

/** To the file (written whole, then renamed: no half file is left by a failure) or stdout. */
export function writeExport(io: CliIo, data: string | Uint8Array, out: string | undefined): void {
  if (out === undefined || out === '-') {
    // `exportFormatOf` asks binary formats for --out: stdout takes text only.
    if (typeof data !== 'string') throw new CliFailure('a binary export needs --out FILE');
    io.stdout.write(data);
    return;
  }
  const file = resolvePath(io, out);
  const partial = `${file}.partial`;
  try {
    fs.writeFileSync(partial, data);
    fs.renameSync(partial, file);
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw new CliFailure(`cannot write ${file}: ${(e as Error).message}`);
  }
}
