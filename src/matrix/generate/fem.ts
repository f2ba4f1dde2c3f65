// FEM/elasticity-like matrices: the full stencil (9-point in 2-D, 27-point in 3-D) on an n^dims grid
// where every grid point carries `block` unknowns, so every stencil entry is a dense block x block
// block (the Kronecker product of the stencil's pattern with a dense block). Row g·block + a is
// unknown a of grid point g; its columns are the blocks of g's neighbours, ascending. Random values.
import type { CsrMatrix } from '../types.js';
import { randomValues, type Rng } from './rng.js';
import type { FemSpec } from './spec.js';
import { generateStencil } from './stencil.js';

export function generateFem(spec: FemSpec, rng: Rng): CsrMatrix {
  const b = spec.block;
  const grid = generateStencil({ dims: spec.dims, n: spec.n, points: spec.dims === 2 ? 9 : 27 });
  const rows = grid.rows * b;
  const nnz = grid.rowPtr[grid.rows] * b * b;
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(nnz);
  let e = 0;
  for (let g = 0; g < grid.rows; g++) {
    const lo = grid.rowPtr[g];
    const hi = grid.rowPtr[g + 1];
    for (let a = 0; a < b; a++) {
      for (let q = lo; q < hi; q++) {
        const base = grid.colIdx[q] * b;
        for (let c = 0; c < b; c++) colIdx[e++] = base + c;
      }
      rowPtr[g * b + a + 1] = e;
    }
  }
  return { rows, cols: rows, rowPtr, colIdx, values: randomValues(rng, nnz) };
}
