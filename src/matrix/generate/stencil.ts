// Finite-difference stencils on an n^dims grid. Grid point (x, y[, z]) is row x + n*y (+ n^2*z).
// Values: the centre holds points - 1 and every neighbour -1 (the graph Laplacian of the stencil,
// so the 5- and 7-point cases are the classic discrete Laplacians). Rows of boundary points keep
// only the neighbours inside the grid, so they have fewer entries.
import type { CsrMatrix } from '../types.js';

export interface StencilSpec {
  dims: 2 | 3;
  n: number;
  points: 5 | 9 | 7 | 27;
}

export function generateStencil(spec: StencilSpec): CsrMatrix {
  const { dims, n, points } = spec;
  const offsets = stencilOffsets(dims, points);
  const rows = n ** dims;
  const strides = [1, n, n * n];
  // Exact count: along each axis, offset d keeps n - |d| positions.
  let nnz = 0;
  for (const off of offsets) nnz += off.reduce((p, d) => p * (n - Math.abs(d)), 1);
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  // Offsets are in (dz, dy, dx) lexicographic order, so columns come out ascending.
  const delta = offsets.map((o) => o.reduce((s, d, axis) => s + d * strides[axis], 0));
  const centre = points - 1;
  const coord = new Int32Array(3);
  let e = 0;
  for (let r = 0; r < rows; r++) {
    for (let o = 0; o < offsets.length; o++) {
      const off = offsets[o];
      let inside = true;
      for (let axis = 0; axis < dims; axis++) {
        const c = coord[axis] + off[axis];
        if (c < 0 || c >= n) {
          inside = false;
          break;
        }
      }
      if (!inside) continue;
      colIdx[e] = r + delta[o];
      values[e] = delta[o] === 0 ? centre : -1;
      e++;
    }
    rowPtr[r + 1] = e;
    // advance the grid coordinate (x fastest)
    for (let axis = 0; axis < dims; axis++) {
      if (++coord[axis] < n) break;
      coord[axis] = 0;
    }
  }
  return { rows, cols: rows, rowPtr, colIdx, values };
}

/** Offsets [dx, dy(, dz)] of a stencil, sorted so that the column offset increases. */
function stencilOffsets(dims: 2 | 3, points: number): number[][] {
  const box = points === 9 || points === 27; // all neighbours in the 3^dims box; else faces only
  const out: number[][] = [];
  const range = [-1, 0, 1];
  const zs = dims === 3 ? range : [0];
  for (const dz of zs) {
    for (const dy of range) {
      for (const dx of range) {
        const nonzeroAxes = (dx !== 0 ? 1 : 0) + (dy !== 0 ? 1 : 0) + (dz !== 0 ? 1 : 0);
        if (box || nonzeroAxes <= 1) out.push(dims === 3 ? [dx, dy, dz] : [dx, dy]);
      }
    }
  }
  return out;
}
