// Core of `spbench convert`: read any supported matrix file (or a directory batch), optionally
// transpose, and write Matrix Market, .spb or a CSR/COO text dump. Every writer is atomic, and
// the input is read completely before anything is written, so bad input leaves no output file.
import { UserError } from '../util/errors.js';
import { transposeCsr } from './csr.js';
import { writeSpb } from './binary.js';
import { writeDump } from './dump.js';
import { kindOfPath, loadBatch, type MatrixFileKind } from './load.js';
import { writeMtx } from './mtx-write.js';
import type { CsrMatrix, IndexWidth, ValueType } from './types.js';

export interface ConvertOptions {
  input: string;
  output: string;
  to?: MatrixFileKind;
  transpose?: boolean;
  precision?: ValueType;
  indexWidth?: IndexWidth;
  pattern?: boolean;
  symmetric?: boolean;
  /** Which matrix of a batch input to write to a single-matrix format. */
  matrix?: number;
  cache?: boolean;
  /** .mtx inputs from this size go .mtx → .spb natively (mtx-native.ts convertMtxNative; default 16 MB; tests lower it). */
  nativeMinBytes?: number;
}

export interface ConvertSummary {
  output: string;
  to: MatrixFileKind;
  matrices: number;
  rows: number;
  cols: number;
  nnz: number;
  /** who wrote the file: the native parser straight from the .mtx, or the TypeScript writers */
  via: 'native' | 'typescript';
}

export async function convertMatrixFile(o: ConvertOptions): Promise<ConvertSummary> {
  const to = o.to ?? kindOfPath(o.output);
  if (!to) throw new UserError(`cannot tell the output format from "${o.output}"; use an extension .mtx, .spb, .csr, .coo or --to`);
  if (to !== 'spb' && (o.precision || o.indexWidth)) throw new UserError('--precision and --index apply only to .spb output');
  if (to !== 'mtx' && (o.pattern || o.symmetric)) throw new UserError('--pattern and --symmetric apply only to .mtx output');
  // a plain .mtx to a float64 .spb as it is: the native parser writes the file itself
  if (to === 'spb' && kindOfPath(o.input) === 'mtx' && !o.transpose && (o.matrix ?? 0) === 0 && (o.precision ?? 'f64') === 'f64') {
    const { convertMtxNative } = await import('./mtx-native.js');
    const done = await convertMtxNative(o.input, o.output, o.indexWidth ?? 4, { minBytes: o.nativeMinBytes });
    if (done) return { output: o.output, to, matrices: 1, ...done, via: 'native' };
  }
  let { matrices } = await loadBatch(o.input, { cache: o.cache });
  if (o.matrix !== undefined) {
    if (!Number.isInteger(o.matrix) || o.matrix < 0 || o.matrix >= matrices.length) {
      throw new UserError(`--matrix ${o.matrix} out of range: ${o.input} holds ${matrices.length} matrices (0..${matrices.length - 1})`);
    }
    matrices = [matrices[o.matrix]];
  }
  if (to !== 'spb' && matrices.length !== 1) {
    throw new UserError(`${o.input} holds ${matrices.length} matrices; .${to} holds one: pick one with --matrix K or write .spb`);
  }
  if (o.transpose) matrices = matrices.map(transposeCsr);
  const m: CsrMatrix = matrices[0];
  if (to === 'spb') await writeSpb(o.output, matrices, { valueType: o.precision ?? 'f64', indexWidth: o.indexWidth ?? 4 });
  else if (to === 'mtx') await writeMtx(o.output, m, { pattern: o.pattern, symmetric: o.symmetric });
  else await writeDump(o.output, m, to);
  const nnz = matrices.reduce((s, x) => s + x.rowPtr[x.rows], 0);
  return { output: o.output, to, matrices: matrices.length, rows: m.rows, cols: m.cols, nnz, via: 'typescript' };
}
