// Batches of small square matrices for batched SpMM (`spbench gen --batch`): random rows, or small
// graphs of a kind (`--graph molecule`).
import type { CsrMatrix } from '../types.js';
import { UserError } from '../../util/errors.js';
import { ColumnSampler } from './columns.js';
import { graphMaxNnzRow, type GraphKind } from './graph.js';
import { generateMolecule } from './molecule.js';
import type { Range } from './range.js';
import { rngFor, type Rng } from './rng.js';

interface BatchCommon {
  batch: number;
  /** rows = cols of each matrix (atoms of each graph), drawn uniformly per matrix from the range */
  dim: Range;
  seed: number;
  /** called after each matrix with (done, total) */
  onProgress?: (done: number, total: number) => void;
}

/** Random rows (nnzRow) or graphs of a kind (graph), one of the two. */
export type BatchOptions = BatchCommon &
  (
    | {
        /** nonzeros of every row of a matrix, drawn uniformly per matrix; clamped to the matrix's dim */
        nnzRow: Range;
        graph?: undefined;
      }
    | { graph: GraphKind; nnzRow?: undefined }
  );

/** The graph generator of each kind: n vertices from the matrix's stream. */
const GRAPHS: { [K in GraphKind]: (n: number, rng: Rng) => CsrMatrix } = { molecule: generateMolecule };

/** Largest batch: matrix i uses PRNG stream i, a 32-bit index. */
const MAX_BATCH = 2 ** 32 - 1;

/**
 * Square matrices; matrix i is generated from stream i of the seed alone, so it is the same in
 * every batch size. Its dim n is drawn first; then, with nnzRow, every row has exactly
 * min(nnzRow_i, n) distinct sorted columns with values in (-1, 1); with graph, it is a graph of
 * that kind on n vertices (./graph.ts).
 */
export function generateBatch(opts: BatchOptions): CsrMatrix[] {
  const { batch, dim, seed } = opts;
  if (!Number.isSafeInteger(batch) || batch < 1 || batch > MAX_BATCH) {
    throw new UserError(`--batch must be an integer from 1 to ${MAX_BATCH}, got ${batch}`);
  }
  checkRange(dim, '--dim');
  if (opts.nnzRow) checkRange(opts.nnzRow, '--nnz-row');
  if (dim.max > 2 ** 31 - 1) throw new UserError(`--dim must be at most ${2 ** 31 - 1}, got ${dim.max}`);
  const rowMax = opts.graph ? graphMaxNnzRow(opts.graph) : opts.nnzRow.max;
  if (dim.max * Math.min(rowMax, dim.max) > 2 ** 31 - 1) {
    throw new UserError(`--dim ${dim.max} with ${opts.graph ? `--graph ${opts.graph} (${rowMax} nonzeros a row)` : `--nnz-row ${rowMax}`} gives more than 2^31-1 nonzeros in one matrix`);
  }
  const one = opts.graph ? GRAPHS[opts.graph] : randomRows(opts.nnzRow);
  const out: CsrMatrix[] = [];
  for (let i = 0; i < batch; i++) {
    const rng = rngFor(seed, i);
    out.push(one(rng.between(dim.min, dim.max), rng));
    opts.onProgress?.(i + 1, batch);
  }
  return out;
}

/** An n x n matrix of min(k, n) distinct sorted columns a row, k drawn from nnzRow; values in (-1, 1). */
function randomRows(nnzRow: Range): (n: number, rng: Rng) => CsrMatrix {
  const sampler = new ColumnSampler();
  return (n, rng) => {
    const k = Math.min(rng.between(nnzRow.min, nnzRow.max), n);
    const nnz = n * k;
    const rowPtr = new Int32Array(n + 1);
    const colIdx = new Int32Array(nnz);
    const values = new Float64Array(nnz);
    for (let r = 0; r < n; r++) {
      sampler.draw(rng, n, k, colIdx, r * k);
      rowPtr[r + 1] = (r + 1) * k;
    }
    for (let e = 0; e < nnz; e++) values[e] = rng.value();
    return { rows: n, cols: n, rowPtr, colIdx, values };
  };
}

function checkRange(r: Range, what: string): void {
  if (!Number.isSafeInteger(r.min) || !Number.isSafeInteger(r.max) || r.min < 1 || r.min > r.max) {
    throw new UserError(`${what} must be a range of positive integers with min <= max, got ${r.min}:${r.max}`);
  }
}
