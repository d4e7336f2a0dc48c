/**
 * The port browser mode listened on last time, kept in the data folder, so the next launch
 * listens there again when it is free: the page keeps one origin across launches, and with it
 * what the browser keeps per origin (the renderer's files and the code compiled from them,
 * docs/cold-start.md; the map's layer choices and the time display in localStorage). Taken by
 * another program, any free port does, as before. `--port` or EO_PORT still decide when given.
 */
import fs from 'node:fs';
import path from 'node:path';

const FILE = 'browser-mode-port';
/** A port number and a newline; anything longer is not ours. */
const MAX_BYTES = 16;

/** The port kept in `dataDir`, or null (none, unreadable, or not a port we would listen on). */
export function readLastPort(dataDir: string): number | null {
  let text: string;
  try {
    const fd = fs.openSync(path.join(dataDir, FILE), 'r');
    try {
      const buf = Buffer.alloc(MAX_BYTES + 1);
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      if (n > MAX_BYTES) return null;
      text = buf.subarray(0, n).toString('utf8').trim();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  if (!/^\d{4,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1024 && port <= 65535 ? port : null;
}

/** Keeps `port` for the next launch (written whole or not at all); a failure only logs. */
export function keepPort(dataDir: string, port: number, log: (line: string) => void): void {
  if (readLastPort(dataDir) === port) return;
  const file = path.join(dataDir, FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, `${port}\n`);
    fs.renameSync(temp, file);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    log(
      `could not keep the port for the next launch: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
