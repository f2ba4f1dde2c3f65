// Reads a text file in Buffer chunks and hands over whole lines only: a line cut by a chunk
// boundary is carried into the next chunk (the buffer grows when one line is longer than it).
// The last line gets a newline appended if the file lacks one, so parsers can rely on a '\n'.
import { open, type FileHandle } from 'node:fs/promises';
import { UserError } from '../util/errors.js';

export const DEFAULT_CHUNK = 4 << 20;
const NL = 10;

export async function openInput(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (err) {
    throw new UserError(`${path}: cannot open: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function readAt(fh: FileHandle, path: string, buf: Buffer, at: number, len: number, pos: number) {
  try {
    return await fh.read(buf, at, len, pos);
  } catch (err) {
    throw new UserError(`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/**
 * Calls `consume(buf, end)` with buf[0, end) holding whole lines (buf[end - 1] is '\n'), from
 * byte `start` to `stop` of the file (default: all of it). Returns the file size.
 */
export async function readLineChunks(
  path: string,
  consume: (buf: Buffer, end: number) => void,
  opts: { chunkSize?: number; start?: number; stop?: number; onSize?: (size: number) => void } = {},
): Promise<number> {
  const fh = await openInput(path);
  try {
    const size = (await fh.stat()).size;
    opts.onSize?.(size);
    const stop = Math.min(size, opts.stop ?? size);
    let pos = opts.start ?? 0;
    let buf = Buffer.allocUnsafe(Math.max(2, opts.chunkSize ?? DEFAULT_CHUNK) + 1);
    let have = 0;
    for (;;) {
      if (buf.length - have - 1 <= 0) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const want = Math.min(buf.length - have - 1, stop - pos);
      const { bytesRead } = want > 0 ? await readAt(fh, path, buf, have, want, pos) : { bytesRead: 0 };
      pos += bytesRead;
      const eof = bytesRead === 0;
      have += bytesRead;
      let cut: number;
      if (eof) {
        if (have > 0 && buf[have - 1] !== NL) buf[have++] = NL;
        cut = have;
      } else {
        cut = have > 0 ? buf.lastIndexOf(NL, have - 1) + 1 : 0;
      }
      if (cut > 0) {
        consume(buf, cut);
        buf.copyWithin(0, cut, have);
        have -= cut;
      }
      if (eof) return size;
    }
  } finally {
    await fh.close();
  }
}
