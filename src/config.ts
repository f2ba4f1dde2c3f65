// Every environment variable spbench reads, in one place (README "Environment variables" lists
// them). Each reader takes the environment as a parameter (default: process.env, read at call
// time) so tests can pass their own.
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

type Env = NodeJS.ProcessEnv;

/** Cache of built executables and parsed matrices: $SPBENCH_CACHE_DIR, $XDG_CACHE_HOME/spbench, or ~/.cache/spbench. */
export function cacheDir(env: Env = process.env): string {
  if (env.SPBENCH_CACHE_DIR) return resolve(env.SPBENCH_CACHE_DIR);
  if (env.XDG_CACHE_HOME) return join(resolve(env.XDG_CACHE_HOME), 'spbench');
  return join(homedir(), '.cache', 'spbench');
}

/** Compilers given instead of the ones found: $SPBENCH_NVCC, $SPBENCH_CXX. */
export function givenCompilers(env: Env = process.env): { nvcc?: string; cxx?: string } {
  return { nvcc: env.SPBENCH_NVCC || undefined, cxx: env.SPBENCH_CXX || undefined };
}

/** CUDA installations named by $CUDA_HOME and $CUDA_PATH, in that order. */
export function cudaHomes(env: Env = process.env): string[] {
  return [env.CUDA_HOME, env.CUDA_PATH].filter((p): p is string => !!p);
}

/** The folders of $PATH. */
export function pathDirs(env: Env = process.env): string[] {
  return (env.PATH ?? '').split(delimiter).filter(Boolean);
}

/** What toolchain discovery depends on (its memo key). */
export function toolchainKey(env: Env = process.env): string {
  return JSON.stringify([env.SPBENCH_NVCC, env.CUDA_HOME, env.CUDA_PATH, env.SPBENCH_CXX, env.PATH]);
}

/** $SPBENCH_CUDA_ARCH: build GPU targets for this compute capability without probing. */
export function cudaArch(env: Env = process.env): string | undefined {
  return env.SPBENCH_CUDA_ARCH || undefined;
}

/** $SPBENCH_EXTRA_FLAGS: extra compiler flags (part of the build hash). */
export function extraFlags(env: Env = process.env): string[] {
  return (env.SPBENCH_EXTRA_FLAGS ?? '').split(/\s+/).filter(Boolean);
}

/** $SPBENCH_CUDA_DIR: native sources to build from instead of the package's cuda/. */
export function cudaSourceOverride(env: Env = process.env): string | undefined {
  return env.SPBENCH_CUDA_DIR ? resolve(env.SPBENCH_CUDA_DIR) : undefined;
}

/**
 * Test aid: $SPBENCH_NATIVE_ARGS is appended to every native command line, e.g. "--inject-fault"
 * (spbench-cpu then writes a wrong result, docs/native-build.md), so a failure can be driven end to end.
 */
export function extraNativeArgs(env: Env = process.env): string[] {
  return (env.SPBENCH_NATIVE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

/** $SPBENCH_COMMIT when it is a full sha (the commit recorded in result files). */
export function givenCommit(env: Env = process.env): string | null {
  const given = env.SPBENCH_COMMIT?.trim();
  return given && /^[0-9a-f]{40}$/.test(given) ? given : null;
}

/** CI set to anything but "", "0" or "false" means a log, not a person, reads the output. */
export function inCi(env: Env = process.env): boolean {
  const v = (env.CI ?? '').trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false';
}

/** $GITHUB_STEP_SUMMARY: the job summary file that compare --markdown appends to. */
export function githubStepSummary(env: Env = process.env): string | undefined {
  return env.GITHUB_STEP_SUMMARY || undefined;
}

/**
 * `run --shard auto`: the shard a scheduler gave this job, as "K/N" (1-based) and the variables it
 * came from, or null when none is set. $SPBENCH_SHARD=K/N (the route for GitHub Actions, which has
 * no index variable of its own) wins; then Slurm arrays ($SLURM_ARRAY_TASK_ID and
 * $SLURM_ARRAY_TASK_COUNT, counted from $SLURM_ARRAY_TASK_MIN — arrays may start at 0 or 1, so
 * without it only an ID of 0 is unambiguous); then GitLab ($CI_NODE_INDEX of $CI_NODE_TOTAL, 1-based).
 * `shard` is null (with `from` saying why) where the variables cannot give one.
 */
export function schedulerShard(env: Env = process.env): { shard: string | null; from: string } | null {
  if (env.SPBENCH_SHARD) return { shard: env.SPBENCH_SHARD, from: 'SPBENCH_SHARD' };
  const id = env.SLURM_ARRAY_TASK_ID;
  const count = env.SLURM_ARRAY_TASK_COUNT;
  if (id !== undefined && count !== undefined && /^\d+$/.test(id)) {
    const given = env.SLURM_ARRAY_TASK_MIN;
    const min = given !== undefined && /^\d+$/.test(given) ? Number(given) : Number(id) === 0 ? 0 : null;
    if (min === null) return { shard: null, from: 'SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not, so whether the array starts at 0 or 1 is unknown' };
    return { shard: `${Number(id) - min + 1}/${count}`, from: 'SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT' };
  }
  if (env.CI_NODE_INDEX !== undefined && env.CI_NODE_TOTAL !== undefined) return { shard: `${env.CI_NODE_INDEX}/${env.CI_NODE_TOTAL}`, from: 'CI_NODE_INDEX/CI_NODE_TOTAL' };
  return null;
}

/** $OMP_NUM_THREADS: CPU threads the user gave OpenMP (run --devices divides them among workers). */
export function ompThreads(env: Env = process.env): string | undefined {
  return env.OMP_NUM_THREADS || undefined;
}

/** Test hook: $SPBENCH_TEST_KILL_DEVICE=N makes the `run --devices` worker on device N die at its first case. */
export function testKillDevice(env: Env = process.env): number | null {
  const v = env.SPBENCH_TEST_KILL_DEVICE;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/** $SPBENCH_KERNEL_TIMEOUT: seconds a user kernel's (plugin's) process may run per case before it is stopped (default 600). */
export function kernelTimeoutMs(env: Env = process.env): number {
  const s = Number(env.SPBENCH_KERNEL_TIMEOUT);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 600_000;
}

/** $SPBENCH_PYTHON: the Python that runs the framework peers and .py plugins (default python3 on PATH). */
export function pythonCommand(env: Env = process.env): string {
  return env.SPBENCH_PYTHON || 'python3';
}

/** $SPBENCH_NATIVE_PARSE=0 turns the native Matrix Market parser off (src/matrix/mtx-native.ts). */
export function nativeParseEnabled(env: Env = process.env): boolean {
  return env.SPBENCH_NATIVE_PARSE !== '0';
}

/**
 * $SPBENCH_MTX_ADDON=0 keeps the native Matrix Market parser out of the spbench process: no Node-API addon, the
 * `spbench-cpu mtx2spb` executable instead (src/matrix/mtx-native.ts; tests force that fallback with it).
 */
export function mtxAddonEnabled(env: Env = process.env): boolean {
  return env.SPBENCH_MTX_ADDON !== '0';
}

/** $SPBENCH_MIRROR: where `spbench fetch` downloads from instead of the SuiteSparse Matrix Collection. */
export function mirrorFromEnv(env: Env = process.env): string | undefined {
  return env.SPBENCH_MIRROR || undefined;
}
