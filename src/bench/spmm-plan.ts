// Turns an SpmmRequest into native runs and cases. A case is one (input, n_B, precision, mode) and
// owns a stable id that `compare` uses to pair results of two files. One native run sweeps the
// whole n_B list, so a run yields one case per n_B.
import type { SpmmRequest } from './api.js';
import type { Precision, TimingMode } from '../kinds.js';
import { distinctNames, resolvedPath } from '../util/path-names.js';

export type Params = Record<string, string | number | boolean>;

export interface PlannedCase {
  id: string;
  label: string;
  params: Params;
}

export interface SpmmCasePlan extends PlannedCase {
  nb: number;
}

export type SpmmSource =
  | { kind: 'generated'; batch: number; dim: string; nnzRow: string }
  | { kind: 'files'; paths: string[] };

export interface SpmmRunPlan {
  /** identifies the input data; runs with the same key share generated/loaded matrices */
  inputKey: string;
  source: SpmmSource;
  precision: Precision;
  mode: TimingMode;
  layout: 'row' | 'col';
  nb: number[];
  /** the run as a whole (all n_B values), for progress */
  label: string;
  cases: SpmmCasePlan[];
}

/** A short name for a list of input paths, stable across machines (basenames, with folders only where two share one). */
export function filesName(paths: string[]): string {
  return distinctNames(paths).join('+');
}

function sourceId(s: SpmmSource): string {
  return s.kind === 'generated' ? `batch=${s.batch}/dim=${s.dim}/nnz=${s.nnzRow}` : `matrices=${filesName(s.paths)}`;
}

function sourceLabel(s: SpmmSource): string {
  return s.kind === 'generated' ? `batch ${s.batch} · dim ${s.dim} · nnz/row ${s.nnzRow}` : `matrices ${filesName(s.paths)}`;
}

function sourceParams(s: SpmmSource): Params {
  return s.kind === 'generated' ? { batch: s.batch, dim: s.dim, nnz_row: s.nnzRow } : { matrices: filesName(s.paths) };
}

export function spmmCaseId(s: SpmmSource, nb: number, precision: Precision, mode: TimingMode, layout: 'row' | 'col'): string {
  // row-major is the default layout and stays out of the id so ids read like the examples
  return `spmm/${sourceId(s)}/nb=${nb}/${precision}/${mode}${layout === 'col' ? '/col' : ''}`;
}

export function planSpmm(req: SpmmRequest): SpmmRunPlan[] {
  const sources: SpmmSource[] = req.matrices?.length
    ? [{ kind: 'files', paths: req.matrices }]
    : req.batch.flatMap((batch) => req.dim.flatMap((dim) => req.nnzRow.map((nnzRow) => ({ kind: 'generated' as const, batch, dim, nnzRow }))));
  const runs: SpmmRunPlan[] = [];
  for (const source of sources) {
    for (const precision of req.precision) {
      for (const mode of req.mode) {
        const label = (nb: string): string => `${sourceLabel(source)} · nB ${nb} · ${precision} · ${mode}${req.layout === 'col' ? ' · col-major' : ''}`;
        const cases = req.nb.map((nb) => ({
          id: spmmCaseId(source, nb, precision, mode, req.layout),
          label: label(String(nb)),
          params: { ...sourceParams(source), nb, precision, mode, layout: req.layout, seed: req.seed },
          nb,
        }));
        const inputKey = source.kind === 'files' ? `files=${source.paths.map(resolvedPath).join('+')}` : sourceId(source);
        runs.push({ inputKey, source, precision, mode, layout: req.layout, nb: req.nb, label: label(req.nb.join(',')), cases });
      }
    }
  }
  return runs;
}

export function countCases(runs: { cases: unknown[] }[]): number {
  return runs.reduce((n, r) => n + r.cases.length, 0);
}
