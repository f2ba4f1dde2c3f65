// The Python side of a SpMM run: the framework peers (PyTorch, family peer) and `--kernel FILE.py`
// plugins (family user) both run through one runner, cuda/python/pyrun.py, in a process of their own
// (like a CUDA plugin: same timeout, same crash handling, src/plugins/run.ts), on the same .spb input
// and seed as the native driver. Where Python, numpy, torch or a GPU is missing, the methods are
// not applicable with the reason (the runner itself says so for torch and CUDA).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pythonCommand } from '../config.js';
import type { CsrMatrix } from '../matrix/types.js';
import { defaultTolerance, valueBytes, type Precision } from '../kinds.js';
import type { ResultLine } from '../native/protocol.js';
import { cudaSourceDir } from '../native/targets.js';
import type { RepeatedLine } from '../bench/repeat.js';
import { runPluginRepeated, userLine, type Expected, type RunNativeFn } from './run.js';

/** Framework peers of the runner (cuda/python/pyrun.py PEERS), in --methods all on the CUDA backend. */
export const FRAMEWORK_PEERS = ['torch-sparse-loop', 'torch-sparse-bmm', 'torch-blockdiag'] as const;
const isPeer = (m: string): boolean => (FRAMEWORK_PEERS as readonly string[]).includes(m);

export const runnerPath = (): string => join(cudaSourceDir(), 'python', 'pyrun.py');

const checked = new Map<string, string | null>();

/** Why `python` cannot run the runner (it does not start, or has no numpy), or null; asked once per process. */
export function pythonUnavailable(python = pythonCommand()): string | null {
  if (!checked.has(python)) {
    const r = spawnSync(python, ['-c', 'import numpy'], { encoding: 'utf8', timeout: 60_000 });
    const why = r.error
      ? `${python} was not found (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}; SPBENCH_PYTHON names another Python)`
      : r.status !== 0
        ? `${python} cannot import numpy, which the Python runner needs (${(r.stderr.trim().split('\n').pop() ?? '').slice(0, 200)})`
        : null;
    checked.set(python, why);
  }
  return checked.get(python) ?? null;
}

/**
 * Splits --methods between the native driver and the Python runner: `all` takes every framework peer
 * on the CUDA backend (the CPU backend has no GPU to time them on; named ones are listed not applicable
 * there). native null: the native driver has nothing to run.
 */
export function splitMethods(methods: 'all' | string[], backend: 'cpu' | 'cuda'): { native: 'all' | string[] | null; peers: string[] } {
  if (methods === 'all') return { native: 'all', peers: backend === 'cuda' ? [...FRAMEWORK_PEERS] : [] };
  const native = methods.filter((m) => !isPeer(m));
  return { native: native.length ? native : null, peers: methods.filter(isPeer) };
}

/** The runner's arguments from the native run's (it takes the same ones, less --methods and --explain). */
export function runnerArgs(nativeArgs: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < nativeArgs.length; i++) {
    if (nativeArgs[i] === '--methods') i++;
    else if (nativeArgs[i] !== '--explain') out.push(nativeArgs[i]);
  }
  return [runnerPath(), ...out];
}

export interface PythonCase {
  backend: 'cpu' | 'cuda';
  backendReason: string;
  args: string[]; // the native run's arguments
  precision: Precision;
  layout: 'row' | 'col';
  mode: 'kernel' | 'e2e' | 'graph';
  mats: CsrMatrix[];
  repeat: number;
}

/** One line per n_B shaped as the runner's (for the lines it does not print itself: crash, timeout, no Python). */
export function caseTemplates(c: PythonCase): ResultLine[] {
  const nbs = c.args[c.args.indexOf('--nb') + 1].split(',').map(Number);
  const t = valueBytes(c.precision);
  let rows = 0, cols = 0, nnz = 0, maxM = 0;
  for (const m of c.mats) {
    rows += m.rows;
    cols += m.cols;
    nnz += m.rowPtr[m.rows];
    maxM = Math.max(maxM, m.rows);
  }
  return nbs.map((nb) => ({
    type: 'result', op: 'spmm', method: '', family: 'peer', status: 'not_applicable', timed_region: c.mode, samples_ms: [], peak_mem_bytes: 0,
    params: { nb, precision: c.precision, mode: c.mode, layout: c.layout, batch: c.mats.length, max_m: maxM },
    flops: 2 * nnz * nb, bytes_moved: nnz * (t + 4) + (rows + c.mats.length) * 4 + (cols + rows) * nb * t,
    verify: { checked: false, passed: false, max_rel_err: null, tol: defaultTolerance(c.precision), reference: 'cpu-f64' },
  }));
}

/**
 * Runs `methods` (framework peers, or the one method of a .py plugin when `plugin` is given) in one
 * runner process per repeat; what cannot run is not applicable with the reason.
 */
export async function pythonResults(methods: string[], c: PythonCase, run: RunNativeFn, plugin?: { file: string; na: string | null }): Promise<RepeatedLine[]> {
  if (methods.length === 0) return [];
  const family = plugin ? 'user' : 'peer';
  const file = plugin?.file ?? 'cuda/python/pyrun.py';
  const expected: Expected[] = caseTemplates(c).flatMap((template) => methods.map((method) => ({ method, template, family })));
  const na =
    plugin?.na ??
    (c.backend === 'cpu'
      ? `${plugin ? 'Python plugins' : 'framework peers'} are timed on a CUDA GPU, and this run uses the CPU backend (${c.backendReason})`
      : pythonUnavailable());
  if (na) return expected.map((e) => userLine(e.template, e.method, file, 'not_applicable', na, family));
  const args = [...runnerArgs(c.args), ...(plugin ? ['--plugin', plugin.file, '--name', methods[0]] : ['--methods', methods.join(',')])];
  return runPluginRepeated(pythonCommand(), args, file, expected, c.repeat, { run });
}
