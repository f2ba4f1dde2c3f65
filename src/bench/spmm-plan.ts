// Turns an SpmmRequest into native runs and cases. A case is one (input, n_B, precision, mode) and
// owns a stable id that `compare` uses to pair results of two files. One native run sweeps the
// whole n_B list, so a run yields one case per n_B.
import { parseRange, type Range } from '../matrix/generate/range.js';
import { graphMeanNnzRow, type GraphKind } from '../matrix/generate/graph.js';
import { UserError } from '../util/errors.js';
import type { SpmmRequest } from './api.js';
import { valueBytes, type CacheState, type Precision, type TimingMode } from '../kinds.js';
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

/** A generated batch's size and its rows: random (nnzRow) or those of graphs of a kind (graph). */
export type BatchShape = { batch: number; dim: string } & ({ nnzRow: string; graph?: undefined } | { graph: GraphKind; nnzRow?: undefined });
/** A generated batch, or files that are the batch. */
export type SpmmSource = ({ kind: 'generated' } & BatchShape) | { kind: 'files'; paths: string[] };

export interface SpmmRunPlan {
  /** identifies the input data; runs with the same key share generated/loaded matrices */
  inputKey: string;
  source: SpmmSource;
  precision: Precision;
  mode: TimingMode;
  layout: 'row' | 'col';
  cache: CacheState;
  nb: number[];
  /** the run as a whole (all n_B values), for progress */
  label: string;
  cases: SpmmCasePlan[];
}

/** A short name for a list of input paths, stable across machines (basenames, with folders only where two share one). */
export function filesName(paths: string[]): string {
  return distinctNames(paths).join('+');
}

// A graph batch says its kind where a random one says its nonzeros a row, so the two never share a case id.
function sourceId(s: SpmmSource): string {
  if (s.kind === 'files') return `matrices=${filesName(s.paths)}`;
  return `batch=${s.batch}/dim=${s.dim}/${s.graph !== undefined ? `graph=${s.graph}` : `nnz=${s.nnzRow}`}`;
}

function sourceLabel(s: SpmmSource): string {
  if (s.kind === 'files') return `matrices ${filesName(s.paths)}`;
  return `batch ${s.batch} · dim ${s.dim} · ${s.graph !== undefined ? `${s.graph} graphs` : `nnz/row ${s.nnzRow}`}`;
}

function sourceParams(s: SpmmSource): Params {
  if (s.kind === 'files') return { matrices: filesName(s.paths) };
  return { batch: s.batch, dim: s.dim, ...(s.graph !== undefined ? { graph: s.graph } : { nnz_row: s.nnzRow }) };
}

export function spmmCaseId(s: SpmmSource, nb: number, precision: Precision, mode: TimingMode, layout: 'row' | 'col'): string {
  // row-major is the default layout and stays out of the id so ids read like the issue's examples
  return `spmm/${sourceId(s)}/nb=${nb}/${precision}/${mode}${layout === 'col' ? '/col' : ''}`;
}

/**
 * A generated batch whose rows would need more distinct columns than a matrix has is a usage error
 * naming both options (rows have exactly --nnz-row distinct columns; nothing is clamped).
 */
export function checkNnzRow(dimText: string, nnzText: string): void {
  const dim = parseRange(dimText, '--dim');
  const nnz = parseRange(nnzText, '--nnz-row');
  if (nnz.max > dim.min) {
    const which = dim.min === dim.max ? `a ${dim.min}×${dim.min} matrix` : `the smallest matrices (dim ${dim.min})`;
    throw new UserError(
      `--nnz-row ${nnzText} with --dim ${dimText}: rows of ${which} have at most ${dim.min} distinct columns; use --nnz-row at most ${dim.min} (or a larger --dim)`,
    );
  }
}

/**
 * How a cache state shows in a case (--cache): cold cases get "/cold" in their id (hot ids stay as
 * they always were, so older baselines still pair), "· L2 cold" in their label and params.cache;
 * hot cases say "· L2 hot" only where the request asked for both.
 */
export function cacheTag(cache: CacheState, all: CacheState[]): { id: string; label: string; params: Params } {
  const shown = cache === 'cold' || all.length > 1;
  return { id: cache === 'cold' ? '/cold' : '', label: shown ? ` · L2 ${cache}` : '', params: shown ? { cache } : {} };
}

export function planSpmm(req: SpmmRequest): SpmmRunPlan[] {
  // a graph's rows hold its bonds and self-loop, never more columns than it has vertices: nothing to check
  if (!req.matrices?.length) for (const dim of req.dim) for (const nnzRow of req.nnzRow) checkNnzRow(dim, nnzRow);
  const graph = req.graph;
  const sources: SpmmSource[] = req.matrices?.length
    ? [{ kind: 'files', paths: req.matrices }]
    : graph !== undefined
      ? req.batch.flatMap((batch) => req.dim.map((dim) => ({ kind: 'generated' as const, batch, dim, graph })))
      : req.batch.flatMap((batch) => req.dim.flatMap((dim) => req.nnzRow.map((nnzRow) => ({ kind: 'generated' as const, batch, dim, nnzRow }))));
  const runs: SpmmRunPlan[] = [];
  for (const source of sources) {
    for (const precision of req.precision) {
      for (const mode of req.mode) {
        for (const cache of req.cache ?? ['hot']) {
          const tag = cacheTag(cache, req.cache ?? ['hot']);
          const label = (nb: string): string => `${sourceLabel(source)} · nB ${nb} · ${precision} · ${mode}${req.layout === 'col' ? ' · col-major' : ''}${tag.label}`;
          const cases = req.nb.map((nb) => ({
            id: spmmCaseId(source, nb, precision, mode, req.layout) + tag.id,
            label: label(String(nb)),
            params: { ...sourceParams(source), nb, precision, mode, layout: req.layout, seed: req.seed, ...tag.params },
            nb,
          }));
          const inputKey = source.kind === 'files' ? `files=${source.paths.map(resolvedPath).join('+')}` : sourceId(source);
          runs.push({ inputKey, source, precision, mode, layout: req.layout, cache, nb: req.nb, label: label(req.nb.join(',')), cases });
        }
      }
    }
  }
  return runs;
}

export function countCases(runs: { cases: unknown[] }[]): number {
  return runs.reduce((n, r) => n + r.cases.length, 0);
}

/** Bytes one native run needs at least (generated inputs; expected values for mixed ranges). */
export interface SpmmFootprint {
  matrices: number;
  rows: number;
  nnz: number;
  /** this process (the matrices as generated) + the native process (its copy, pinned batch, B, float64 reference) */
  hostBytes: number;
  /** A (CSR), B and C of the largest n_B: what the smallest method holds on the GPU (one method at a time) */
  deviceBytes: number;
}

const mean = (r: Range): number => (r.min + r.max) / 2;

/** Expected nonzeros a row of a generated batch: min(k, d) for k and d drawn uniformly and independently (checkNnzRow makes it k), or a graph's. */
export function meanNnzRow(s: BatchShape): number {
  const dim = parseRange(s.dim, '--dim');
  return s.graph !== undefined ? graphMeanNnzRow(s.graph, dim) : Math.min(mean(parseRange(s.nnzRow, '--nnz-row')), mean(dim));
}

export function spmmFootprint(s: BatchShape, nb: number[], precision: Precision): SpmmFootprint {
  const rows = s.batch * mean(parseRange(s.dim, '--dim'));
  const nnz = rows * meanNnzRow(s);
  const t = valueBytes(precision);
  const nbMax = Math.max(...nb);
  // JS: Int32 row pointers + Int32 columns + Float64 values, ~250 bytes of objects per matrix.
  const js = rows * 4 + nnz * 12 + s.batch * 250;
  // Native (t = 2 for f16/bf16, whose .spb holds f32 values): the matrices read (int64 pointers, columns, double values) and their rounded copy, the
  // pinned batch (CSR, COO, block-diagonal columns), B (T and the float64 copy), the float64
  // reference of C with its |A||B| bound, and the copy of C read back for verification.
  const native = 2 * (rows * 8 + nnz * 16) + nnz * 3 * (t + 8) + rows * nbMax * (t + 8) + rows * nbMax * (16 + t);
  const device = nnz * (t + 4) + rows * 4 + 2 * rows * nbMax * t;
  return { matrices: s.batch, rows, nnz, hostBytes: js + native, deviceBytes: device };
}

export const formatBytes = (b: number): string =>
  b >= 1e12 ? `${(b / 1e12).toFixed(2)} TB` : b >= 1e9 ? `${(b / 1e9).toFixed(2)} GB` : b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : `${Math.round(b / 1e3)} kB`;

/**
 * Refuses, before any matrix is made, a generated run that cannot fit: the bytes it needs on the
 * host and the device and what the machine has. `device` is the GPU's memory in bytes, or null where
 * it is not known here (the CUDA driver then refuses the case itself against the free GPU memory).
 */
export function checkSpmmFits(run: SpmmRunPlan, host: { total: number; free: number }, device: number | null): SpmmFootprint | null {
  if (run.source.kind !== 'generated') return null;
  const f = spmmFootprint(run.source, run.nb, run.precision);
  const hostTooBig = f.hostBytes > host.total;
  const deviceTooBig = device !== null && f.deviceBytes > device;
  if (hostTooBig || deviceTooBig) {
    const dev = device === null ? 'device memory is not known here: the CUDA driver checks it against the free GPU memory' : `the GPU has ${formatBytes(device)}`;
    throw new UserError(
      `${run.label}: too large for this machine: it needs about ${formatBytes(f.hostBytes)} of host memory (the machine has ${formatBytes(host.total)}, ` +
        `${formatBytes(host.free)} free) and at least ${formatBytes(f.deviceBytes)} of device memory for A, B and C (${dev}); ` +
        'use a smaller --batch, --dim or --nb',
    );
  }
  return f;
}
