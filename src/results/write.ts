// Writing a result file: one format and one path for spmm/spgemm --json and run --json. The file
// is checked against the schema first (it is a promise to report and compare), then written
// atomically, its folder created.
import { gzipSync } from 'node:zlib';
import { writeOutput } from '../util/write-output.js';
import { ResultFile } from './schema.js';

/** The file's text: the schema-checked object as indented JSON. */
export function resultFileText(file: ResultFile): string {
  return `${JSON.stringify(ResultFile.parse(file), null, 1)}\n`;
}

/** Writes the result file to `path` ("-" is stdout; a name ending in .gz is written gzip-compressed). */
export function writeResultFile(path: string, file: ResultFile): void {
  const text = resultFileText(file);
  if (path === '-') process.stdout.write(text);
  else writeOutput(path, path.endsWith('.gz') ? gzipSync(text) : text);
}
