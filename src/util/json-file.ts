// Reading a JSON file the user named (a suite, a result file): every failure is one sentence
// naming the file.
import { readFile } from 'node:fs/promises';
import { UserError } from './errors.js';

/** Reads and parses a JSON file; `what` ("suite file", "result file") names it in errors. */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'it is a directory' : e.message;
    throw new UserError(`cannot read ${what} ${path}: ${why}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${what} ${path} is not JSON: ${(err as Error).message}`);
  }
}
