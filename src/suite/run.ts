// Runs every case of a suite in order through the spmm/spgemm core and merges the result files.
// A case that throws does not stop the others; the error is rethrown after the merge so that the
// run still fails (a missing case must never look like "no regression" in CI).
import type { RunSink, SpgemmRequest, SpmmRequest } from '../bench/api.js';
import type { BackendChoice } from '../kinds.js';
import type { CaseResult, ResultFile } from '../results/schema.js';
import type { ProgressEvent } from '../progress/event.js';
import { etaMs } from '../util/duration.js';
import { EnvironmentError, RuntimeFailure, UserError } from '../util/errors.js';
import { mergeResultFiles, type NamedResult } from './merge.js';
import { describeCase, spgemmRequest, spmmRequest } from './requests.js';
import type { Suite } from './schema.js';

export interface Runners {
  spmm(req: SpmmRequest, sink: RunSink): Promise<ResultFile>;
  spgemm(req: SpgemmRequest, sink: RunSink): Promise<ResultFile>;
}

export interface SuiteSink {
  /** title: the suite; done/total: suite cases; label: the case running ('' when finished); detail: its own progress */
  progress(p: ProgressEvent): void;
  caseDone(name: string, cases: CaseResult[], elapsedMs: number): void;
  caseFailed(name: string, error: Error): void;
  log(message: string): void;
}

export interface SuiteRunOptions {
  backend: BackendChoice;
  command: string[];
  runners: Runners;
  sink: SuiteSink;
  now?: () => number; // injectable clock for tests
}

export interface SuiteOutcome {
  file: ResultFile | null; // null when no case produced results
  warnings: string[];
  error: Error | null; // the failed cases, to be thrown after the file is written
}

export async function runSuite(suite: Suite, opts: SuiteRunOptions): Promise<SuiteOutcome> {
  const now = opts.now ?? Date.now;
  const t0 = now();
  const created = new Date().toISOString();
  const total = suite.cases.length;
  const parts: NamedResult[] = [];
  const errors: { name: string; error: Error }[] = [];
  const report = (done: number, current: string, detail: string, inner: number) => {
    const elapsedMs = now() - t0;
    opts.sink.progress({ title: suite.name, done, total, label: current, detail, elapsedMs, etaMs: etaMs(elapsedMs, (done + inner) / total) });
  };
  for (const [i, c] of suite.cases.entries()) {
    report(i, c.name, describeCase(c), 0);
    const caseStart = now();
    const sink: RunSink = {
      progress: (p) => report(i, c.name, p.label, p.total > 0 ? Math.min(1, p.done / p.total) : 0),
      caseDone: () => undefined, // the merged, renamed cases are reported when the suite case ends
      log: (m) => opts.sink.log(`${c.name}: ${m}`),
    };
    try {
      const file = c.op === 'spmm' ? await opts.runners.spmm(spmmRequest(c, opts.backend), sink) : await opts.runners.spgemm(spgemmRequest(c, opts.backend), sink);
      parts.push({ name: c.name, file });
      opts.sink.caseDone(c.name, file.cases, now() - caseStart);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      errors.push({ name: c.name, error });
      opts.sink.caseFailed(c.name, error);
    }
  }
  report(total, '', 'done', 0);
  const error = errors.length ? combine(errors) : null;
  if (!parts.length) return { file: null, warnings: [], error };
  return { ...mergeResultFiles(parts, { command: opts.command, created }), error };
}

/**
 * One error for all failed cases, with the exit code of the most serious one: an internal failure
 * (4) outranks the environment (3), which outranks a usage error (2).
 */
export function combine(errors: { name: string; error: Error }[]): Error {
  const text = errors.map((e) => `${e.name}: ${e.error.message}`).join('; ');
  const msg = `${errors.length} suite case(s) failed: ${text}`;
  if (errors.every((e) => e.error instanceof UserError)) return new UserError(msg);
  const details = errors.map((e) => (e.error instanceof RuntimeFailure ? e.error.detail : undefined)).filter(Boolean).join('\n');
  const internal = errors.some((e) => !(e.error instanceof UserError) && !(e.error instanceof EnvironmentError));
  return internal ? new RuntimeFailure(msg, details || undefined) : new EnvironmentError(msg, details || undefined);
}
