// In-memory sparse matrix types shared by readers, writers, generators and the native bridge.

export type ValueType = 'f32' | 'f64';
export type IndexWidth = 4 | 8;

/** Canonical CSR: columns sorted ascending within each row, no duplicates, 0-based. */
export interface CsrMatrix {
  rows: number;
  cols: number;
  /** length rows + 1; Float64Array when nnz may exceed 2^31 - 1 is never needed in JS: nnz < 2^53. */
  rowPtr: Int32Array | Float64Array;
  colIdx: Int32Array;
  values: Float64Array;
}

/** Coordinate triplets as read, possibly unsorted and with duplicates (0-based). */
export interface CooMatrix {
  rows: number;
  cols: number;
  nnz: number;
  rowIdx: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

export type MtxFormat = 'coordinate' | 'array';
export type MtxField = 'real' | 'integer' | 'pattern';
export type MtxSymmetry = 'general' | 'symmetric' | 'skew-symmetric' | 'hermitian';

export interface MtxHeader {
  format: MtxFormat;
  field: MtxField;
  symmetry: MtxSymmetry;
}
