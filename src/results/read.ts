// Reading a result file (spbench-results/1) for report and compare.
import { readJsonFile } from '../util/json-file.js';
import type { ResultFile } from './schema.js';
import { parseResultFile } from './validate.js';

export async function readResultFile(path: string): Promise<ResultFile> {
  return parseResultFile(await readJsonFile(path, 'result file'), path);
}
