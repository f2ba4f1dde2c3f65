// `run --devices`: the device list (probing the GPUs for "all") and the pool run with each
// worker's share of CPU threads.
import type { BackendChoice } from '../kinds.js';
import type { SuiteOutcome, SuiteSink } from '../suite/run.js';
import type { Suite } from '../suite/schema.js';
import { ompThreads } from '../config.js';
import { parseDevices, threadShare } from './devices.js';
import { runOnDevices } from './pool.js';

export async function deviceList(text: string, backend: BackendChoice): Promise<number[]> {
  return parseDevices(text, async () => {
    if (backend === 'cpu') return null;
    const { probeDevices } = await import('../native/backend.js');
    return (await probeDevices())?.devices.length ?? null;
  });
}

export async function runOnDeviceList(suite: Suite, suitePath: string, devices: number[], o: { backend: BackendChoice; command: string[]; sink: SuiteSink }): Promise<SuiteOutcome> {
  const threads = threadShare(devices.length, ompThreads());
  o.sink.log(`${suite.cases.length} case(s) on ${devices.length} device worker(s) (devices ${devices.join(', ')}), ${threads} CPU thread(s) each`);
  return runOnDevices(suite, { suitePath, backend: o.backend, devices, threads, command: o.command, sink: o.sink });
}
