// Glue for `spbench run`: load the suite, pick the renderer (ink on a TTY, plain lines otherwise),
// run, write the result file atomically, then fail if any case failed.
import { existsSync, statSync } from 'node:fs';
import type { BackendChoice } from '../kinds.js';
import { UserError } from '../util/errors.js';
import { nonNegativeInt } from '../bench/options.js';
import { renderReport } from '../report/index.js';
import { inCi } from '../config.js';
import { writeResultFile } from '../results/write.js';
import { loadSuite } from './load.js';
import { plainSuiteSink } from './plain-sink.js';
import { describeCase } from './requests.js';
import { runSuite, type Runners, type SuiteSink } from './run.js';

export interface RunCommandOptions {
  json?: string;
  backend: BackendChoice;
  validate?: boolean;
  runners?: Runners; // tests inject fakes
  interactive?: boolean;
  shard?: string; // "K/N" or "auto" (src/scale/select.ts)
  devices?: string; // "all" or "0,2": one worker process per device (src/scale/pool.ts)
  cases?: string; // only these suite cases (names, comma-separated)
  device?: string; // every native run on this device
}

export async function runSuiteCommand(suitePath: string, opts: RunCommandOptions): Promise<void> {
  const whole = await loadSuite(suitePath);
  let sharded: import('../scale/select.js').Selected | null = null;
  if (opts.shard !== undefined) {
    const { resolveShard, selectShard } = await import('../scale/select.js');
    sharded = selectShard(whole, resolveShard(opts.shard));
  }
  let suite = sharded?.suite ?? whole;
  if (opts.cases !== undefined) suite = (await import('../scale/worker.js')).selectCases(suite, opts.cases);
  if (opts.validate) {
    process.stdout.write(`${suitePath}: suite "${suite.name}" is valid, ${suite.cases.length} case(s):\n`);
    for (const c of suite.cases) process.stdout.write(`  ${c.name}: ${describeCase(c)}\n`);
    return;
  }
  // A long suite must not fail at the very end on an unusable output path.
  if (opts.json && existsSync(opts.json) && statSync(opts.json).isDirectory()) throw new UserError(`--json: ${opts.json} is a directory`);
  let runners = opts.runners ?? (await (await import('./runners.js')).loadRunners());
  if (opts.device !== undefined) runners = (await import('../scale/worker.js')).onDevice(runners, nonNegativeInt(opts.device, '--device'));
  const devices = opts.devices !== undefined ? await (await import('../scale/run-devices.js')).deviceList(opts.devices, opts.backend) : null;
  const interactive = opts.interactive ?? (Boolean(process.stderr.isTTY) && !inCi());
  let sink: SuiteSink & { close?: () => void };
  if (interactive) sink = (await import('./progress.js')).inkSink();
  else sink = plainSuiteSink((line) => process.stderr.write(`${line}\n`));
  const command = ['spbench', ...process.argv.slice(2)];
  let outcome;
  try {
    outcome = devices
      ? await (await import('../scale/run-devices.js')).runOnDeviceList(suite, suitePath, devices, { backend: opts.backend, command, sink })
      : await runSuite(suite, { backend: opts.backend, command, runners, sink });
  } finally {
    sink.close?.();
  }
  if (sharded && outcome.file) outcome.file = { ...outcome.file, shard: sharded.record };
  for (const w of outcome.warnings) process.stderr.write(`spbench: warning: ${w}\n`);
  if (outcome.file) {
    if (opts.json) {
      writeResultFile(opts.json, outcome.file);
      process.stderr.write(`wrote ${outcome.file.cases.length} case(s) of suite "${suite.name}" to ${opts.json}\n`);
    } else {
      process.stdout.write(renderReport(outcome.file, 'md'));
    }
  }
  if (outcome.error) throw outcome.error;
}
