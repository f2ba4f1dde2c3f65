// The worker side of `run --devices`: `run --cases NAME --device D` runs the named suite cases with
// every native run on device D.
import { ompThreads, testKillDevice } from '../config.js';
import type { Runners } from '../suite/run.js';
import type { Suite } from '../suite/schema.js';
import { UserError } from '../util/errors.js';

/** The suite cut down to the named cases (suite order); an unknown name is an error naming it. */
export function selectCases(suite: Suite, names: string): Suite {
  const wanted = names.split(',').map((s) => s.trim()).filter(Boolean);
  const known = new Set(suite.cases.map((c) => c.name));
  const unknown = wanted.filter((n) => !known.has(n));
  if (unknown.length) throw new UserError(`--cases: suite "${suite.name}" has no case ${unknown.map((n) => `"${n}"`).join(', ')} (it has ${[...known].join(', ')})`);
  return { ...suite, cases: suite.cases.filter((c) => wanted.includes(c.name)) };
}

/**
 * Runners whose requests all go to `device`. A worker of `run --devices` gets its share of the host's
 * threads as $OMP_NUM_THREADS (the CPU backend's OpenMP reads it); the CUDA SpGEMM driver's reference
 * threads get the same number through --threads.
 */
export function onDevice(runners: Runners, device: number): Runners {
  const t = ompThreads();
  const threads = t !== undefined && /^\d+$/.test(t) && Number(t) > 0 ? Number(t) : undefined;
  return {
    spmm: (req, sink) => {
      dieForTest(device);
      return runners.spmm({ ...req, device }, sink);
    },
    spgemm: (req, sink) => {
      dieForTest(device);
      return runners.spgemm({ ...req, device, ...(threads !== undefined ? { threads } : {}) }, sink);
    },
  };
}

/** Test hook ($SPBENCH_TEST_KILL_DEVICE, src/config.ts): the worker of that device dies as a crash would. */
function dieForTest(device: number): void {
  if (testKillDevice() === device) process.kill(process.pid, 'SIGKILL');
}
