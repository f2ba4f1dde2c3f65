// Writes a report/result output: creates the parent folder (CI jobs write to perf/... on a fresh
// checkout), then writes atomically so a failure never leaves a half-written file.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from './atomic-write.js';
import { UserError } from './errors.js';

export function writeOutput(path: string, text: string | Buffer): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomicSync(path, text);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UserError(`cannot write ${path}: ${e.code === 'EISDIR' ? 'it is a directory' : e.message}`);
  }
}
