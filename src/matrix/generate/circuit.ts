// Circuit-like matrices: every node (row) has its diagonal plus nnz_row-1 random distinct columns,
// the first half within a window of max(8, 4·nnz_row) around the diagonal and the rest anywhere;
// then `hubs` nets (power, ground, clock): a random hub node joined to hub_size random other nodes,
// an entry in the hub's row and one in its column for each. Entries a net repeats merge into one.
import { cooToCsr } from '../csr.js';
import type { CsrMatrix } from '../types.js';
import { ColumnSampler, drawDistinct, RowMarks } from './columns.js';
import { randomValues, type Rng } from './rng.js';
import type { CircuitSpec } from './spec.js';

export function generateCircuit(spec: CircuitSpec, rng: Rng): CsrMatrix {
  const { rows: n, nnzRow: k, hubs, hubSize } = spec;
  const near = (k - 1) >> 1;
  const window = Math.max(8, 4 * k);
  const total = n * k + 2 * hubs * hubSize;
  const rowIdx = new Int32Array(total);
  const colIdx = new Int32Array(total);
  const marks = new RowMarks();
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - window);
    const span = Math.min(n - 1, i + window) - lo + 1;
    // the window holds at least min(n, 4k+1) >= k columns, so the near draws can always be filled
    drawDistinct(marks, n, k, (m) => (m === 0 ? i : m <= near ? lo + rng.below(span) : rng.below(n)), colIdx, i * k);
    rowIdx.fill(i, i * k, (i + 1) * k);
  }
  const sampler = new ColumnSampler();
  const hubNodes = new Int32Array(hubs);
  sampler.draw(rng, n, hubs, hubNodes, 0);
  const others = new Int32Array(hubSize);
  let e = n * k;
  for (const h of hubNodes) {
    sampler.draw(rng, n - 1, hubSize, others, 0);
    for (const t of others) {
      const v = t >= h ? t + 1 : t; // skip the hub itself
      rowIdx[e] = h;
      colIdx[e++] = v;
      rowIdx[e] = v;
      colIdx[e++] = h;
    }
  }
  // values are drawn after merging, so a merged entry is one value in (-1, 1), not a sum
  const m = cooToCsr({ rows: n, cols: n, nnz: total, rowIdx, colIdx, values: new Float64Array(total) });
  return { ...m, values: randomValues(rng, m.rowPtr[n]) };
}
