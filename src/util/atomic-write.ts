// Output files are written to a temporary sibling and renamed into place, so a failure never
// leaves a half-written file under the requested name.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export function tempSibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
}

/** Writes `data` to `path` atomically (temp file + rename). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const tmp = tempSibling(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Streams chunks produced by `produce` into `path` atomically: the file appears only if `produce`
 * finishes without throwing; otherwise the temporary file is removed and the error rethrown.
 */
export async function writeStreamAtomic(path: string, produce: (write: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
  const tmp = tempSibling(path);
  const fh = await open(tmp, 'w');
  try {
    await produce(async (chunk) => {
      await fh.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw err;
  }
}
