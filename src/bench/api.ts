// What the spmm / spgemm commands and suites ask the core to run. The CLI and `spbench run` both
// build these requests; src/bench/spmm-run.ts and spgemm-run.ts carry them out.
import type { CaseResult } from '../results/schema.js';

export const OPS = ['spmm', 'spgemm'] as const;
export type Op = (typeof OPS)[number];
export const PRECISIONS = ['f32', 'f64'] as const;
export type Precision = (typeof PRECISIONS)[number];
export const TIMING_MODES = ['kernel', 'e2e', 'graph'] as const;
export type TimingMode = (typeof TIMING_MODES)[number];
export const LAYOUTS = ['row', 'col'] as const;
export type Layout = (typeof LAYOUTS)[number];
export const BACKENDS = ['auto', 'cpu', 'cuda'] as const;
export type BackendChoice = (typeof BACKENDS)[number];

export interface SpmmRequest {
  batch: number[]; // batch sizes to sweep
  dim: string[]; // each "64" or a mixed range "32:256" (drawn per matrix)
  nnzRow: string[]; // each "3" or "1:5"
  nb: number[]; // n_B values, one native run sweeps them all
  precision: Precision[];
  mode: TimingMode[];
  layout: Layout;
  methods: string[] | 'all';
  matrices?: string[]; // .mtx/.spb files or directories that form one batch, instead of generated ones
  seed: number;
  warmup: number;
  samples: number;
  repeat?: number; // separate native process runs on the same inputs (default 1), see src/bench/repeat.ts
  backend: BackendChoice;
  device?: number; // CUDA device of the native runs (--device; default 0); the CPU backend ignores it
}

export interface SpgemmRequest {
  inputs: string[]; // matrix files (A; C = A·A unless b is set)
  gen: string[]; // generator specs, e.g. "rmat:scale=18,ef=4"
  b?: string; // second operand file for A·B
  genB?: string; // second operand generated from this spec (A·B with a generated A), instead of b
  precision: Precision[];
  methods: string[] | 'all';
  seed: number;
  warmup: number;
  samples: number;
  breakdown: boolean;
  explain: boolean;
  repeat?: number; // separate native process runs on the same inputs (default 1)
  backend: BackendChoice;
  device?: number; // CUDA device of the native runs (--device; default 0); the CPU backend ignores it
}

export interface RunProgress {
  done: number; // cases finished
  total: number;
  label: string; // current case
  elapsedMs: number;
}

/** Receives events while a request runs; renderers (ink, plain lines, JSON) implement it. */
export interface RunSink {
  progress(p: RunProgress): void;
  caseDone(c: CaseResult): void;
  log(message: string): void;
}
