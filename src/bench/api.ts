// What the spmm / spgemm commands and suites ask the core to run. The CLI and `spbench run` both
// build these requests; src/bench/spmm-run.ts and spgemm-run.ts carry them out.
import type { CaseResult, ResultFile } from './result-file.js';

export type Precision = 'f32' | 'f64';
export type TimingMode = 'kernel' | 'e2e' | 'graph';
export type BackendChoice = 'auto' | 'cpu' | 'cuda';

export interface SpmmRequest {
  batch: number[]; // batch sizes to sweep
  dim: string[]; // each "64" or a mixed range "32:256" (drawn per matrix)
  nnzRow: string[]; // each "3" or "1:5"
  nb: number[]; // n_B values, one native run sweeps them all
  precision: Precision[];
  mode: TimingMode[];
  layout: 'row' | 'col';
  methods: string[] | 'all';
  matrices?: string[]; // .mtx/.spb files or directories that form one batch, instead of generated ones
  seed: number;
  warmup: number;
  samples: number;
  repeat?: number; // separate native process runs on the same inputs (default 1), see src/bench/repeat.ts
  backend: BackendChoice;
  explain?: boolean; // print the planner's rule and its choice for `auto` (CUDA backend)
}

export interface SpgemmRequest {
  inputs: string[]; // matrix files (A; C = A·A unless b is set)
  gen: string[]; // generator specs, e.g. "rmat:scale=18,ef=4"
  b?: string; // second operand file for A·B
  precision: Precision[];
  methods: string[] | 'all';
  seed: number;
  warmup: number;
  samples: number;
  breakdown: boolean;
  explain: boolean;
  repeat?: number; // separate native process runs on the same inputs (default 1)
  backend: BackendChoice;
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

export type RunOutcome = ResultFile;
