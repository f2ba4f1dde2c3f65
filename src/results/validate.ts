// Validating a result file (spbench-results/1) held in memory: what report and compare read, and
// what spmm/spgemm --json and run --json promise to write. Every problem is a UserError naming the
// file and the field, so the CLI exits 2 with one sentence.
import { UserError } from '../util/errors.js';
import { describeIssues } from '../util/zod-issues.js';
import { RESULT_SCHEMA, ResultFile } from './schema.js';

/** Validates parsed JSON; `file` names the source in errors. */
export function parseResultFile(obj: unknown, file: string): ResultFile {
  if (obj && typeof obj === 'object' && 'schema' in obj && (obj as { schema: unknown }).schema !== RESULT_SCHEMA) {
    throw new UserError(`${file}: schema: expected "${RESULT_SCHEMA}", found ${JSON.stringify((obj as { schema: unknown }).schema)} (not an spbench result file of this version)`);
  }
  const r = ResultFile.safeParse(obj);
  if (!r.success) throw new UserError(`${file} is not a valid spbench result file: ${describeIssues(file, r.error.issues)}`);
  return r.data;
}
