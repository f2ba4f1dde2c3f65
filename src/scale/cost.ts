// Estimated cost of a suite case, from its request alone (no file is read, only its size stat'ed):
// what sharding and the device pool use to balance work. A relative figure, not a time: cases are
// compared with each other, so only the proportions matter.
import { statSync } from 'node:fs';
import type { SuiteCase } from '../suite/schema.js';
import { meanNnzRow } from '../bench/spmm-plan.js';

/** Mean of a "64" or "32:256" axis value. */
function mean(text: string): number {
  const [lo, hi] = text.split(':').map(Number);
  const v = hi === undefined ? lo : (lo + hi) / 2;
  return Number.isFinite(v) && v > 0 ? v : 1;
}

function keys(spec: string): Record<string, number> {
  const out: Record<string, number> = {};
  const body = spec.slice(spec.indexOf(':') + 1);
  for (const kv of body.split(',')) {
    const [k, v] = kv.split('=');
    const n = Number(v);
    if (k && Number.isFinite(n)) out[k.trim()] = n;
  }
  return out;
}

/** Intermediate products of A·A for a generator spec, roughly: rows × (nonzeros per row)². */
export function specProducts(spec: string): number {
  const kind = spec.slice(0, spec.indexOf(':'));
  const k = keys(spec);
  let rows = k.rows ?? k.n ?? 1000;
  let perRow = k.nnz_row ?? k.avg ?? 4;
  if (kind === 'rmat') {
    rows = 2 ** (k.scale ?? 10);
    perRow = k.ef ?? 8;
  } else if (kind === 'stencil') {
    rows = (k.n ?? 100) ** (k.dims ?? 2);
    perRow = k.points ?? 5;
  } else if (kind === 'fem') {
    const dims = k.dims ?? 2;
    rows = (k.n ?? 10) ** dims * (k.block ?? 1);
    perRow = (dims === 3 ? 27 : 9) * (k.block ?? 1);
  } else if (kind === 'banded') perRow = 2 * (k.bw ?? 1) + 1;
  else if (kind === 'perm') perRow = 1;
  else if (kind === 'irregular') perRow = ((k.min ?? 1) + (k.max ?? 8)) / 2;
  else if (kind === 'longrow') perRow = 2 * (k.bw ?? 1) + 1 + (k.long_rows ?? 0);
  return rows * perRow * perRow;
}

/** A file's share of work from its size: about 20 bytes per nonzero in Matrix Market text. */
function fileProducts(path: string): number {
  let bytes = 1e6;
  try {
    bytes = statSync(path).size;
  } catch {
    // a missing file fails when the case runs; here it only weighs like a 1 MB one
  }
  const nnz = bytes / 20;
  return nnz * 8; // products ≈ nnz × a few nonzeros per row
}

/** Mean nonzeros a row of each matrix kind an spmm case generates at dim `d`: its nnzRow values, or its graphs'. */
function perRow(c: Extract<SuiteCase, { op: 'spmm' }>, d: string): number[] {
  return c.graph !== undefined ? [meanNnzRow({ batch: 1, dim: d, graph: c.graph })] : c.nnzRow.map(mean);
}

/** Relative cost of one suite case: work of one timed call × calls (warm-up + samples) × runs. */
export function caseCost(c: SuiteCase): number {
  // --samples auto: about 50 samples (noise rule, min-samples 10) until the timeout says otherwise
  const calls = (c.warmup + (c.samples === 'auto' ? 50 : c.samples)) * (c.repeat ?? 1);
  if (c.op === 'spmm') {
    const nbSum = c.nb.reduce((a, b) => a + b, 0);
    const per = c.matrices?.length
      ? c.matrices.map(fileProducts).reduce((a, b) => a + b, 0) / 8
      : c.batch.reduce((s, b) => s + c.dim.reduce((t, d) => t + perRow(c, d).reduce((u, k) => u + b * mean(d) * k, 0), 0), 0);
    return per * nbSum * c.precision.length * c.mode.length * calls + 1;
  }
  const products = [...c.gen.map(specProducts), ...c.inputs.map(fileProducts)].reduce((a, b) => a + b, 0);
  return products * c.precision.length * calls + 1;
}
