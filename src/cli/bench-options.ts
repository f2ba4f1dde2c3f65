// Options that spmm and spgemm share (precision, methods, seed, sampling, backend, output), their
// help text and their validation, in one place.
import type { Command } from 'commander';
import type { BackendChoice, Precision } from '../bench/api.js';
import { listOf, methodList, nonNegativeInt, oneOf, positiveInt } from '../bench/options.js';

export interface CommonBenchOptions {
  precision: string;
  methods: string;
  seed: string;
  warmup: string;
  samples: string;
  repeat?: string; // commander fills the default '1'
  backend: string;
  json?: string;
  quiet?: boolean;
}

export interface CommonRequest {
  precision: Precision[];
  methods: string[] | 'all';
  seed: number;
  warmup: number;
  samples: number;
  repeat: number;
  backend: BackendChoice;
}

export function addCommonOptions(cmd: Command, d: { seedHelp: string; warmup: string; samples: string; samplesHelp: string; libs: string }): Command {
  return cmd
    .option('--precision <f32|f64|f32,f64>', 'value precision(s)', 'f32')
    .option('--methods <all|m1,m2>', 'methods to run (names as printed in the table)', 'all')
    .option('--seed <n>', d.seedHelp, '1')
    .option('--warmup <n>', 'untimed runs before sampling', d.warmup)
    .option('--samples <n>', d.samplesHelp, d.samples)
    .option('--repeat <n>', 'run the native executable N times as separate processes on the same inputs; the result keeps every sample and one median per run, which compare needs to tell run-to-run drift from a change (use 3 or more for CI)', '1')
    .option('--backend <auto|cpu|cuda>', `auto uses the GPU when one (with nvcc, ${d.libs}) is usable, else the CPU backend`, 'auto')
    .option('--json <file>', 'also write the result file (schema spbench-results/1); "-" prints only the JSON to stdout')
    .option('--quiet', 'no progress or log lines');
}

export function parseCommon(o: CommonBenchOptions): CommonRequest {
  return {
    precision: listOf(o.precision, '--precision', ['f32', 'f64'] as const),
    methods: methodList(o.methods, '--methods'),
    seed: nonNegativeInt(o.seed, '--seed'),
    warmup: nonNegativeInt(o.warmup, '--warmup'),
    samples: positiveInt(o.samples, '--samples'),
    repeat: positiveInt(o.repeat ?? '1', '--repeat'),
    backend: oneOf(o.backend, '--backend', ['auto', 'cpu', 'cuda'] as const),
  };
}
