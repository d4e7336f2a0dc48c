/** JSON given on the command line: inline (`--json`) or as a file (`--file`, `-` for stdin). */
import { UsageError, type OptionValues } from './args';
import { readTextFile, type CliIo } from './io';

export function jsonText(text: string, source: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(
      `${source} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/** The JSON of --json or --file; undefined when neither is given; both is a usage error. */
export async function jsonInput(io: CliIo, values: OptionValues): Promise<unknown> {
  if (values.json !== undefined && values.file !== undefined)
    throw new UsageError('give the JSON with --json or --file, not both');
  if (values.json !== undefined) return jsonText(values.json, '--json');
  if (values.file !== undefined)
    return jsonText(await readTextFile(io, values.file), `--file ${values.file}`);
  return undefined;
}
