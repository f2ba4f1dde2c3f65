// The executables spbench runs, built on first use: build.ts compiles and caches them; for GPU
// targets the architecture comes from opts.arch, $SPBENCH_CUDA_ARCH, or the probed GPU 0
// (backend.ts runs spbench-probe, which build.ts builds without probing anything).
import { EnvironmentError } from '../util/errors.js';
import { probeDevices } from './backend.js';
import { buildExecutable, type EnsureOptions } from './build.js';
import type { TargetName } from './targets.js';

export type { EnsureOptions };

/** Compute capability of GPU 0, as found by spbench-probe. */
async function probedArch(): Promise<string> {
  const dev = (await probeDevices())?.devices[0];
  if (!dev) throw new EnvironmentError('no usable CUDA GPU was found, so GPU executables cannot be built for it: check the driver (nvidia-smi), set SPBENCH_CUDA_ARCH (e.g. 90) to build for a given GPU, or use --backend cpu.');
  return dev.cc;
}

/** Path of the cached executable for `target`, building it first when missing or when `rebuild`. */
export function ensureExecutable(target: TargetName, opts: EnsureOptions = {}): Promise<string> {
  return buildExecutable(target, { probeArch: probedArch, ...opts });
}
