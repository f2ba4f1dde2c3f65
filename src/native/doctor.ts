// `spbench doctor` and `spbench build` core: what the toolchain and GPU look like, which backend
// each op will use and why, and building every executable that can be built here.
import { RuntimeFailure } from '../util/errors.js';
import { chooseBackend, cudaUnavailable, probe } from './backend.js';
import { ensureExecutable } from './executables.js';
import type { GpuInfo } from './protocol.js';
import { hasSources, targetSpec, TARGETS, type TargetName } from './targets.js';
import { cacheDir } from '../config.js';
import { discoverToolchain, findNodeInclude, libFound, type CudaLib } from './toolchain.js';
import { OPS, type Backend, type Op } from '../kinds.js';

export interface DoctorReport {
  nvcc: { path: string; version: string } | null;
  gxx: { path: string; version: string } | null;
  cudaRoots: string[];
  cusparse: CudaLib & { found: boolean };
  cublas: CudaLib & { found: boolean };
  devices: GpuInfo[];
  cuda: { runtime: string; driver: string } | null;
  gpu: string; // which GPU, or why none is usable
  backends: Record<Op, { backend: Backend; reason: string }>;
  cacheDir: string;
}

export async function doctorReport(log?: (s: string) => void): Promise<DoctorReport> {
  const tc = await discoverToolchain();
  const p = await probe({ log });
  const pick = (c: typeof tc.nvcc) => (c ? { path: c.path, version: c.version } : null);
  return {
    nvcc: pick(tc.nvcc),
    gxx: pick(tc.gxx),
    cudaRoots: tc.cudaRoots,
    cusparse: { ...tc.cusparse, found: libFound(tc.cusparse) },
    cublas: { ...tc.cublas, found: libFound(tc.cublas) },
    devices: p.env?.devices ?? [],
    cuda: p.env?.cuda ? { runtime: p.env.cuda.runtime, driver: p.env.cuda.driver } : null,
    gpu: p.reason,
    backends: { spmm: await chooseBackend('auto', 'spmm'), spgemm: await chooseBackend('auto', 'spgemm') },
    cacheDir: cacheDir(),
  };
}

const KiB = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const GiB = (n: number) => `${(n / 2 ** 30).toFixed(1)} GiB`;
const MiB = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

function libText(l: CudaLib & { found: boolean }): string {
  if (l.found) return `found${l.version ? ` ${l.version}` : ''} (${l.header}; ${l.library})`;
  return `NOT found (${[l.header ? null : 'no header', l.library ? null : 'no library'].filter(Boolean).join(', ')})`;
}

export function formatDoctor(r: DoctorReport): string {
  const out: string[] = [];
  out.push(`nvcc:      ${r.nvcc ? `${r.nvcc.path} (${r.nvcc.version})` : 'NOT found (set SPBENCH_NVCC or CUDA_HOME, or install the CUDA toolkit)'}`);
  out.push(`g++:       ${r.gxx ? `${r.gxx.path} (${r.gxx.version})` : 'NOT found (needed for the CPU backend)'}`);
  out.push(`cuSPARSE:  ${libText(r.cusparse)}`);
  out.push(`cuBLAS:    ${libText(r.cublas)}`);
  out.push(`CUDA dirs: ${r.cudaRoots.join(', ') || '(none)'}`);
  if (r.cuda) out.push(`CUDA:      runtime ${r.cuda.runtime}, driver ${r.cuda.driver}`);
  if (r.devices.length === 0) out.push(`GPUs:      none usable (${r.gpu})`);
  for (const d of r.devices) {
    out.push(`GPU ${d.index}:     ${d.name}, compute capability ${d.cc}, ${d.sms} SMs, ${GiB(d.global_mem_bytes)} memory, L2 ${MiB(d.l2_bytes)}`);
    out.push(
      `           shared memory per block ${KiB(d.smem_per_block)} (opt-in ${KiB(d.smem_per_block_optin)}), per SM ${KiB(d.smem_per_sm)}; ` +
        `${d.max_threads_per_sm} threads / ${d.max_blocks_per_sm} blocks per SM`,
    );
  }
  for (const op of OPS) out.push(`${op.padEnd(7)}    → ${r.backends[op].backend} backend: ${r.backends[op].reason}`);
  out.push(`cache:     ${r.cacheDir}`);
  return `${out.join('\n')}\n`;
}

export interface BuiltTarget {
  target: TargetName;
  path: string | null; // null when skipped
  skipped?: string; // why it was not built
}

/** Builds the named targets (errors if one cannot be built), or by default every target this machine can build. */
export async function buildTargets(opts: { targets?: TargetName[]; rebuild?: boolean; log?: (s: string) => void }): Promise<BuiltTarget[]> {
  const out: BuiltTarget[] = [];
  for (const target of opts.targets ?? TARGETS) {
    if (!opts.targets) {
      const why = await whyNotBuildable(target);
      if (why) {
        out.push({ target, path: null, skipped: why });
        continue;
      }
    }
    out.push({ target, path: await ensureExecutable(target, { rebuild: opts.rebuild, log: opts.log }) });
  }
  return out;
}

async function whyNotBuildable(target: TargetName): Promise<string | null> {
  const tc = await discoverToolchain();
  if (!hasSources(target)) return `no source (cuda/${targetSpec(target).main})`;
  if (target === 'cpu') return tc.gxx ? null : 'g++ not found';
  if (target === 'mtx-addon') return !tc.gxx ? 'g++ not found' : findNodeInclude() ? null : "Node's headers (node_api.h) not found";
  if (target === 'probe') return tc.nvcc ? null : 'nvcc not found';
  try {
    return await cudaUnavailable(target === 'spmm-cuda' ? 'spmm' : 'spgemm');
  } catch (e) {
    if (e instanceof RuntimeFailure) return e.message;
    throw e;
  }
}
