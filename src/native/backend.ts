// Which backend runs an op: CUDA when nvcc, a GPU (found by spbench-probe), the libraries the op
// links and its driver source all exist; otherwise the CPU reference backend, with the reason.
import { EnvironmentError, RuntimeFailure } from '../util/errors.js';
import { buildExecutable } from './build.js';
import type { EnvLine } from './protocol.js';
import { runNative } from './runner.js';
import { gpuTargetFor, hasSources, targetSpec } from './targets.js';
import { discoverToolchain, libFound } from './toolchain.js';
import type { Backend, Op } from '../kinds.js';


export interface ProbeOutcome {
  env: EnvLine | null; // null when no GPU can be used
  reason: string; // why not, or which GPU
}

let probeMemo: Promise<ProbeOutcome> | null = null;

/** The last non-empty line of a failure (for a probe failure: the probe's own stderr sentence). */
function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? text;
}

async function runProbe(log?: (s: string) => void): Promise<ProbeOutcome> {
  let exe: string;
  try {
    exe = await buildExecutable('probe', { log }); // the probe needs no GPU architecture
  } catch (e) {
    if (e instanceof RuntimeFailure) return { env: null, reason: e.message.split('\n')[0] };
    throw e;
  }
  try {
    const lines = await runNative(exe, []);
    const env = lines.find((l): l is EnvLine => l.type === 'env') ?? null;
    if (!env || env.devices.length === 0) return { env: null, reason: 'spbench-probe found no CUDA GPU' };
    const d = env.devices[0];
    return { env, reason: `GPU 0 is ${d.name} (compute capability ${d.cc}, ${d.sms} SMs)` };
  } catch (e) {
    // The probe's stderr says e.g. "spbench-probe: no usable CUDA GPU: <CUDA error>. Check ...": keep the first sentence.
    if (e instanceof RuntimeFailure) return { env: null, reason: lastLine(e.message).replace(/^spbench-probe:\s*/, '').split('. ')[0].replace(/\.$/, '') };
    throw e;
  }
}

/** Runs spbench-probe once per process (building it first). */
export function probe(opts: { refresh?: boolean; log?: (s: string) => void } = {}): Promise<ProbeOutcome> {
  if (!probeMemo || opts.refresh) probeMemo = runProbe(opts.log);
  return probeMemo;
}

/** The probe's env line with every GPU, or null when there is no usable GPU or no nvcc. */
export async function probeDevices(): Promise<EnvLine | null> {
  return (await probe()).env;
}

/** Why the CUDA backend cannot run `op` here, or null when it can. */
export async function cudaUnavailable(op: Op): Promise<string | null> {
  const tc = await discoverToolchain();
  if (!tc.nvcc) return 'nvcc was not found (install the CUDA toolkit, or set SPBENCH_NVCC or CUDA_HOME)';
  const p = await probe();
  if (!p.env) return p.reason.startsWith('no usable') ? p.reason : `no usable CUDA GPU (${p.reason})`;
  const spec = targetSpec(gpuTargetFor(op));
  const missing = spec.needsLibs.filter((l) => !libFound(tc[l]));
  if (missing.length) {
    const names = missing.map((l) => (l === 'cusparse' ? 'cuSPARSE' : 'cuBLAS')).join(' and ');
    return `${names} headers or libraries were not found next to nvcc ${tc.nvcc.version} (install the toolkit's ${missing.join('/')} development files)`;
  }
  if (!hasSources(spec.name)) return `this spbench has no CUDA driver for ${op} (cuda/${spec.main} is missing)`;
  return null;
}

export async function chooseBackend(requested: 'auto' | Backend, op: Op): Promise<{ backend: Backend; reason: string }> {
  if (requested === 'cpu') return { backend: 'cpu', reason: 'requested with --backend cpu' };
  const why = await cudaUnavailable(op);
  if (why === null) {
    const p = await probe();
    return { backend: 'cuda', reason: `${p.reason}; nvcc and the libraries ${op} links were found` };
  }
  if (requested === 'cuda') throw new EnvironmentError(`--backend cuda is not possible for ${op}: ${why}. Fix that, or use --backend cpu.`);
  return { backend: 'cpu', reason: `${why}; using the CPU reference backend (CPU wall-clock figures, not GPU figures)` };
}
