// Reading a JSON file the user named (a suite, a result file), gzip-compressed or not (result files of
// auto-sampled runs keep every sample and reach tens of MB; they compress about 12x): every failure is one
// sentence naming the file.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { UserError } from './errors.js';

/** Whether bytes start with gzip's magic number. */
const isGzip = (b: Buffer): boolean => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** Reads and parses a JSON file (plain or gzip); `what` ("suite file", "result file") names it in errors. */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message;
    throw new UserError(`cannot read ${what} ${path}: ${why}`);
  }
  try {
    text = (isGzip(bytes) ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (err) {
    throw new UserError(`${what} ${path} is not valid gzip: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${what} ${path} is not JSON: ${(err as Error).message}`);
  }
}
