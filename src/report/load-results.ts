// Reads and validates a result file (spbench-results/1) for report and compare.
// Every problem is a UserError naming the file and the field, so the CLI exits 2 with one sentence.
import { RESULT_SCHEMA, ResultFile } from '../bench/result-file.js';
import { UserError } from '../util/errors.js';
import { describeIssues } from '../util/zod-issues.js';
import { readJsonFile } from '../util/json-file.js';

/** Validates parsed JSON; `file` names the source in errors. */
export function parseResultFile(obj: unknown, file: string): ResultFile {
  if (obj && typeof obj === 'object' && 'schema' in obj && (obj as { schema: unknown }).schema !== RESULT_SCHEMA) {
    throw new UserError(`${file}: schema: expected "${RESULT_SCHEMA}", found ${JSON.stringify((obj as { schema: unknown }).schema)} (not an spbench result file of this version)`);
  }
  const r = ResultFile.safeParse(obj);
  if (!r.success) throw new UserError(`${file} is not a valid spbench result file: ${describeIssues(file, r.error.issues)}`);
  return r.data;
}

export async function readResultFile(path: string): Promise<ResultFile> {
  return parseResultFile(await readJsonFile(path, 'result file'), path);
}
