// Shared by spmm-run and spgemm-run: a temporary directory for .spb inputs, one native invocation
// with its lines sorted by kind, progress bookkeeping, and the description of an input batch.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsrMatrix } from '../matrix/types.js';
import type { EnvLine, NativeLine, ResultLine } from '../native/protocol.js';
import { RuntimeFailure } from '../util/errors.js';
import type { BenchSink, RunSink } from './api.js';
import type { BenchDeps } from './deps.js';
import { extraNativeArgs } from '../config.js';
import type { Op } from '../kinds.js';

/**
 * Runs `fn` with a fresh temporary directory that is removed afterwards, whatever happens, also
 * when the run is interrupted (Ctrl-C): the signal is raised again after the clean-up.
 */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'spbench-'));
  const onSignal = (sig: NodeJS.Signals): void => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    rmSync(dir, { recursive: true, force: true });
    process.kill(process.pid, sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await fn(dir);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await rm(dir, { recursive: true, force: true });
  }
}

export class ProgressTracker {
  private readonly start = Date.now();
  done = 0;
  constructor(readonly total: number, private readonly sink: RunSink) {}

  report(label: string): void {
    this.sink.progress({ done: this.done, total: this.total, label, elapsedMs: Date.now() - this.start });
  }

  /** Counts finished cases; only the final count is reported (each run reports its own start). */
  advance(n: number, label: string): void {
    this.done += n;
    if (this.done >= this.total) this.report(label);
  }
}

export interface NativeOutput {
  env: EnvLine | null;
  results: ResultLine[];
}

/**
 * One native invocation. Child progress lines refine the current case's label, log lines go to
 * the sink as they arrive; results are checked to belong to `op` (another op means a broken executable).
 */
export async function invokeNative(deps: BenchDeps, exe: string, args: string[], op: Op, sink: BenchSink, progress: ProgressTracker, label: string): Promise<NativeOutput> {
  const out: NativeOutput = { env: null, results: [] };
  const onLine = (l: NativeLine): void => {
    if (l.type === 'progress') progress.report(`${label} — ${l.label} (${l.done}/${l.total})`);
    else if (l.type === 'log') sink.log(`${l.level === 'warn' ? 'warning: ' : ''}${l.message}`);
    else if (l.type === 'explain') sink.explain?.(l);
  };
  const lines = await deps.runNative(exe, [...args, ...extraNativeArgs()], { onLine });
  for (const l of lines) {
    if (l.type === 'env' && !out.env) out.env = l;
    if (l.type !== 'result') continue;
    if (l.op !== op) throw new RuntimeFailure(`${exe} printed a ${l.op} result during a ${op} run (method ${l.method})`);
    out.results.push(l);
  }
  if (!out.env) throw new RuntimeFailure(`${exe} did not print its env line (protocol: always the first line)`);
  return out;
}

/** What a case records about its input: counts and shapes, enough to tell inputs apart. */
export function describeMatrices(mats: CsrMatrix[]): Record<string, number> {
  let nnz = 0;
  let rowsMin = Infinity;
  let rowsMax = 0;
  let colsMax = 0;
  for (const m of mats) {
    nnz += m.rowPtr[m.rows];
    rowsMin = Math.min(rowsMin, m.rows);
    rowsMax = Math.max(rowsMax, m.rows);
    colsMax = Math.max(colsMax, m.cols);
  }
  return { matrices: mats.length, rows_min: mats.length ? rowsMin : 0, rows_max: rowsMax, cols_max: colsMax, nnz };
}
