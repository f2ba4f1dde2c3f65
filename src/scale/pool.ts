// `run --devices`: one worker process per device. The parent hands the suite's cases out longest
// first (src/scale/cost.ts); a worker is `spbench run SUITE --cases NAME --device D --json TMP`, so a
// case runs exactly as it would alone. Results are joined in suite order with each case's device in
// params.device. A worker that dies (a signal, or an internal-error exit) retires its device: the
// case it ran becomes an error naming the device, the other devices take the remaining cases, and
// their results are kept.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BackendChoice } from '../kinds.js';
import type { CaseResult, ResultFile } from '../results/schema.js';
import { parseResultFile } from '../results/validate.js';
import { combine, type SuiteOutcome, type SuiteSink } from '../suite/run.js';
import type { Suite, SuiteCase } from '../suite/schema.js';
import { EnvironmentError, RuntimeFailure, UserError } from '../util/errors.js';
import { caseCost } from './cost.js';

const BIN = fileURLToPath(new URL('../../../bin/spbench.js', import.meta.url));

export interface PoolOptions {
  suitePath: string;
  backend: BackendChoice;
  devices: number[];
  threads: number; // OMP_NUM_THREADS of each worker
  command: string[];
  sink: SuiteSink;
  cost?: (c: SuiteCase) => number;
}

interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runWorker(o: PoolOptions, c: SuiteCase, device: number, out: string, log: (line: string) => void): Promise<WorkerExit> {
  const args = [BIN, 'run', o.suitePath, '--cases', c.name, '--device', String(device), '--backend', o.backend, '--json', out];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1', OMP_NUM_THREADS: String(o.threads) } });
    let stderr = '';
    let pending = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) if (l.trim() && !QUIET.test(l)) log(l);
    });
    child.on('error', (err) => resolve({ code: null, signal: null, stderr: `${stderr}${err.message}` }));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** The last "spbench: …" sentence a worker printed (its error), or ''. */
function lastError(stderr: string): string {
  const err = stderr.trim().split('\n').reverse().find((l) => l.startsWith('spbench: '));
  return err ? err.replace(/^spbench: /, '') : '';
}

/** Worker lines the parent shows: not its own progress, done and wrote lines (the parent prints those). */
const QUIET = /^(\[\d+\/\d+\] |done |wrote )/;

export async function runOnDevices(suite: Suite, o: PoolOptions): Promise<SuiteOutcome> {
  const cost = o.cost ?? caseCost;
  const queue = [...suite.cases].sort((a, b) => cost(b) - cost(a) || (a.name < b.name ? -1 : 1));
  const created = new Date().toISOString();
  const t0 = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'spbench-devices-'));
  const done = new Map<string, { file: ResultFile; device: number }>();
  const errors: { name: string; error: Error }[] = [];
  const dead = new Set<number>();
  let finished = 0;
  const running = new Map<number, string>(); // device → the case its worker runs
  const progress = (): void => {
    const elapsedMs = Date.now() - t0;
    const current = [...running].sort((a, b) => a[0] - b[0]).map(([d, n]) => `device ${d}: ${n}`).join(' · ');
    o.sink.progress({ title: suite.name, done: finished, total: suite.cases.length, label: current, detail: `${o.devices.length - dead.size} device worker(s)`, elapsedMs, etaMs: finished ? (elapsedMs / finished) * (suite.cases.length - finished) : null });
  };
  const worker = async (device: number): Promise<void> => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const out = join(dir, `${c.name}.json`);
      const start = Date.now();
      running.set(device, c.name);
      progress();
      const r = await runWorker(o, c, device, out, (l) => o.sink.log(`[device ${device}] ${l}`));
      running.delete(device);
      finished++;
      const file = await readFile(out, 'utf8').then((t) => parseResultFile(JSON.parse(t), out)).catch(() => null);
      const died = r.signal !== null || r.code === null || r.code === 4 || r.code > 4;
      if (file) done.set(c.name, { file, device });
      if (r.code === 0 && file) {
        o.sink.caseDone(c.name, file.cases, Date.now() - start);
        continue;
      }
      const why = r.signal ? `killed by ${r.signal}` : `exit code ${r.code ?? 'none'}`;
      const error = died
        ? new RuntimeFailure(`device ${device}: the worker died (${why}) while running case ${c.name}${file ? ' (its partial results are kept)' : ''}; device ${device} takes no more cases${lastError(r.stderr) ? `: ${lastError(r.stderr)}` : ''}`)
        : r.code === 2
          ? new UserError(`device ${device}: ${lastError(r.stderr) || why}`)
          : new EnvironmentError(`device ${device}: ${lastError(r.stderr) || why}`);
      errors.push({ name: c.name, error });
      o.sink.caseFailed(c.name, error);
      if (died) {
        dead.add(device);
        return;
      }
    }
  };
  try {
    await Promise.all(o.devices.map(worker));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const c of queue) errors.push({ name: c.name, error: new RuntimeFailure(`not run: every device's worker died (devices ${[...dead].join(', ')})`) });
  progress();
  const error = errors.length ? combine(errors) : null;
  const parts = suite.cases.map((c) => done.get(c.name)).filter((p): p is { file: ResultFile; device: number } => !!p);
  if (!parts.length) return { file: null, warnings: [], error };
  const cases: CaseResult[] = parts.flatMap((p) => p.file.cases.map((c) => ({ ...c, params: { ...c.params, device: p.device } })));
  const warnings: string[] = [];
  const kinds = new Set(parts.map((p) => p.file.device?.name ?? `${p.file.backend} backend`));
  if (kinds.size > 1) warnings.push(`the devices are of different kinds (${[...kinds].join(', ')}): the file records the first; each case's device number is in params.device`);
  return { file: { ...parts[0].file, created, command: o.command, cases }, warnings, error };
}
