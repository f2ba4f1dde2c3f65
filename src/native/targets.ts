// The native executables (and the Matrix Market parser's Node-API addon): where their sources are,
// which compiler and flags build them.
// The build hash covers every file under `hashed` (folders or files relative to cuda/), so a change
// to any header a target may include rebuilds it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cudaSourceOverride } from '../config.js';
import { PACKAGE_DIR } from '../util/package-root.js';
import type { Op } from '../kinds.js';

export type TargetName = 'cpu' | 'mtx-addon' | 'probe' | 'spmm-cuda' | 'spgemm-cuda';
export const TARGETS: readonly TargetName[] = ['cpu', 'mtx-addon', 'probe', 'spmm-cuda', 'spgemm-cuda'];

export interface TargetSpec {
  name: TargetName;
  exe: string; // executable base name
  compiler: 'g++' | 'nvcc';
  main: string; // translation unit, relative to cuda/
  hashed: string[]; // folders/files (relative to cuda/) whose contents enter the build hash
  flags: string[]; // compile flags before the source (arch added separately for GPU targets)
  libs: string[]; // link flags after the source
  needsArch: boolean; // compiled for the probed GPU (-arch=sm_XX)
  needsLibs: Array<'cusparse' | 'cublas'>;
  /** a Node-API addon: compiled against the running Node's headers (node_api.h), loaded with process.dlopen */
  nodeApi?: boolean;
}

/** A GPU driver: cuda/drivers/<op>_cuda.cu with its kernels (cuda/<op>/) and peers, for the probed GPU. */
function gpuDriver(op: Op, libs: Array<'cusparse' | 'cublas'>): TargetSpec {
  return {
    name: `${op}-cuda`,
    exe: `spbench-${op}-cuda`,
    compiler: 'nvcc',
    main: `drivers/${op}_cuda.cu`,
    hashed: ['common', op, 'peers', `drivers/${op}_cuda.cu`],
    flags: ['-std=c++17', '-O3', '-lineinfo'],
    libs: [...libs.map((l) => `-l${l}`), '-ldl'], // -ldl: NVML is loaded with dlopen (cuda/common/nvml_clocks.cuh)
    needsArch: true,
    needsLibs: libs,
  };
}

const SPECS: Record<TargetName, TargetSpec> = {
  cpu: {
    name: 'cpu',
    exe: 'spbench-cpu',
    compiler: 'g++',
    main: 'cpu/spbench_cpu.cpp',
    hashed: ['common', 'cpu'],
    // No -march=native: the cache directory may be shared between machines.
    flags: ['-std=c++17', '-O3', '-fopenmp'],
    libs: [],
    needsArch: false,
    needsLibs: [],
  },
  'mtx-addon': {
    name: 'mtx-addon',
    exe: 'spbench-mtx-addon',
    compiler: 'g++',
    main: 'cpu/mtx_addon.cpp',
    hashed: ['cpu/mtx_addon.cpp', 'cpu/mtx_parse.hpp', 'cpu/mtx_number.hpp'],
    flags: ['-std=c++17', '-O3', '-shared', '-fPIC', '-pthread'],
    libs: [],
    needsArch: false,
    needsLibs: [],
    nodeApi: true,
  },
  probe: {
    name: 'probe',
    exe: 'spbench-probe',
    compiler: 'nvcc',
    main: 'drivers/probe.cu',
    hashed: ['common', 'drivers/probe.cu'],
    // Runtime API only, no kernels: PTX for the oldest arch CUDA 13 supports runs on any newer GPU.
    flags: ['-std=c++17', '-O2', '-arch=compute_75'],
    libs: [],
    needsArch: false,
    needsLibs: [],
  },
  'spmm-cuda': gpuDriver('spmm', ['cusparse', 'cublas']),
  'spgemm-cuda': gpuDriver('spgemm', ['cusparse']),
};

export function targetSpec(name: TargetName): TargetSpec {
  return SPECS[name];
}

export function isTargetName(s: string): s is TargetName {
  return (TARGETS as readonly string[]).includes(s);
}

/** The GPU executable that runs an op. */
export function gpuTargetFor(op: Op): TargetName {
  return op === 'spmm' ? 'spmm-cuda' : 'spgemm-cuda';
}

/** cuda/ of this package, or $SPBENCH_CUDA_DIR. */
export function cudaSourceDir(): string {
  const given = cudaSourceOverride();
  if (given) return given;
  return join(PACKAGE_DIR, 'cuda');
}

/** Whether this checkout has the target's main source (GPU drivers arrive in later issues). */
export function hasSources(name: TargetName, cudaDir = cudaSourceDir()): boolean {
  return existsSync(join(cudaDir, SPECS[name].main));
}

/** "9.0" → "sm_90". */
export function archFlag(cc: string): string {
  const m = /^(\d+)\.(\d+)$/.exec(cc.trim());
  if (!m) throw new Error(`unexpected compute capability '${cc}'`);
  return `-arch=sm_${m[1]}${m[2]}`;
}
