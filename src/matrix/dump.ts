// Plain-text dumps, for eyeballing and for other tools (documented in docs/matrix-dumps.md):
//   CSR (.csr): line 1 "rows cols nnz"; line 2 row_ptr (rows+1 integers); line 3 col_idx (nnz
//               0-based integers); line 4 values (nnz numbers). Fields separated by spaces.
//   COO (.coo): line 1 "rows cols nnz"; then nnz lines "row col value", 0-based, any order
//               (duplicates are summed on read).
// Both are read back into canonical CSR; errors name file and line.
import { UserError } from '../util/errors.js';
import { writeStreamAtomic } from '../util/atomic-write.js';
import { canonicalizeRows, cooToCsr, newRowPtr } from './csr.js';
import { readLineChunks } from './line-chunks.js';
import { formatValue } from './mtx-write.js';
import { scanEnd, scanHadFraction, scanNumber, tokenAt } from './number-scan.js';
import type { CsrMatrix } from './types.js';

export type DumpKind = 'csr' | 'coo';
const CHUNK_CHARS = 1 << 20;
const INT32_MAX = 0x7fffffff;

/** Calls `each(value, line)` for every number on the line chunks of a file, tracking line numbers. */
class NumberLines {
  line = 0;
  constructor(
    private readonly path: string,
    private readonly each: (v: number, integer: boolean, line: number) => void,
    private readonly endLine: (line: number) => void,
  ) {}

  consume(buf: Buffer, end: number): void {
    let p = 0;
    while (p < end) {
      this.line++;
      for (;;) {
        let c = buf[p];
        while (c === 32 || c === 9 || c === 13) c = buf[++p];
        if (c === 10) break;
        const v = scanNumber(buf, p);
        if (scanEnd < 0) throw new UserError(`${this.path}:${this.line}: bad number "${tokenAt(buf, p)}"`);
        p = scanEnd;
        this.each(v, !scanHadFraction, this.line);
      }
      p++;
      this.endLine(this.line);
    }
  }
}

export async function readDump(path: string, kind: DumpKind, opts: { chunkSize?: number } = {}): Promise<CsrMatrix> {
  const fail = (line: number, msg: string): never => {
    throw new UserError(`${path}:${line}: ${msg}`);
  };
  const head: number[] = [];
  let rows = 0, cols = 0, nnz = 0;
  let onLine = 0; // numbers on the current line
  let m: CsrMatrix | undefined; // csr
  let coo: { rowIdx: Int32Array; colIdx: Int32Array; values: Float64Array } | undefined;
  let k = 0; // entries (coo) or position within the current array (csr)
  const index = (v: number, integer: boolean, line: number, what: string, limit: number): number => {
    if (!integer || v < 0 || v >= limit) fail(line, `${what} ${v} out of range 0..${limit - 1}`);
    return v;
  };
  const reader = new NumberLines(
    path,
    (v, integer, line) => {
      onLine++;
      if (line === 1) {
        if (!integer || v < 0 || !Number.isSafeInteger(v)) fail(1, `header must be "rows cols nnz" (non-negative integers)`);
        head.push(v);
        return;
      }
      if (kind === 'coo') {
        if (line - 1 > nnz) fail(line, `more entries than the ${nnz} the header declares`);
        const slot = onLine - 1;
        if (slot > 2) fail(line, 'expected "row col value" (3 fields)');
        if (slot === 0) coo!.rowIdx[k] = index(v, integer, line, 'row index', rows);
        else if (slot === 1) coo!.colIdx[k] = index(v, integer, line, 'column index', cols);
        else coo!.values[k] = v;
        return;
      }
      const mat = m!;
      if (line === 2) {
        if (k > rows) fail(line, `row_ptr has more than rows+1 = ${rows + 1} values`);
        if (!integer || v < 0 || v > nnz) fail(line, `row_ptr value ${v} out of range 0..${nnz}`);
        if (k > 0 && v < mat.rowPtr[k - 1]) fail(line, `row_ptr decreases at position ${k}`);
        mat.rowPtr[k++] = v;
      } else if (line === 3) {
        if (k >= nnz) fail(line, `col_idx has more than nnz = ${nnz} values`);
        mat.colIdx[k++] = index(v, integer, line, 'column index', cols);
      } else if (line === 4) {
        if (k >= nnz) fail(line, `values has more than nnz = ${nnz} values`);
        mat.values[k++] = v;
      } else fail(line, 'unexpected data after the values line');
    },
    (line) => {
      if (line === 1) {
        if (head.length !== 3) fail(1, `header must be "rows cols nnz", found ${head.length} numbers`);
        [rows, cols, nnz] = head;
        if (rows > INT32_MAX || cols > INT32_MAX) fail(1, `dimensions ${rows} x ${cols} exceed 2^31-1`);
        if (kind === 'csr') m = { rows, cols, rowPtr: newRowPtr(rows, nnz), colIdx: new Int32Array(nnz), values: new Float64Array(nnz) };
        else coo = { rowIdx: new Int32Array(nnz), colIdx: new Int32Array(nnz), values: new Float64Array(nnz) };
      } else if (kind === 'coo') {
        if (onLine !== 0 && onLine !== 3) fail(line, `expected "row col value" (3 fields), found ${onLine}`);
        if (onLine === 3) k++;
      } else if (line <= 4) {
        const want = line === 2 ? rows + 1 : nnz;
        const name = ['row_ptr', 'col_idx', 'values'][line - 2];
        if (k !== want) fail(line, `${name} line has ${k} values, expected ${want}`);
        k = 0;
      }
      onLine = 0;
    },
  );
  await readLineChunks(path, (buf, end) => reader.consume(buf, end), { chunkSize: opts.chunkSize });
  const last = reader.line;
  if (head.length === 0) fail(1, 'empty file (expected a "rows cols nnz" header)');
  if (kind === 'coo') {
    if (k !== nnz) fail(last + 1, `file ends after ${k} of the ${nnz} entries the header declares`);
    return cooToCsr({ rows, cols, nnz, ...coo! });
  }
  if (last < 4 && nnz > 0) fail(last + 1, `file ends early: expected ${['row_ptr', 'col_idx', 'values'][Math.max(0, last - 1)]} line`);
  if (last < 2) fail(2, 'file ends early: expected the row_ptr line');
  const mat = m!;
  if (mat.rowPtr[rows] !== nnz || mat.rowPtr[0] !== 0) fail(2, `row_ptr must start at 0 and end at nnz (${nnz})`);
  canonicalizeRows(mat);
  return mat;
}

export async function writeDump(path: string, m: CsrMatrix, kind: DumpKind): Promise<void> {
  const nnz = m.rowPtr[m.rows];
  await writeStreamAtomic(path, async (write) => {
    let text = `${m.rows} ${m.cols} ${nnz}\n`;
    const flush = async (force = false) => {
      if (force || text.length >= CHUNK_CHARS) {
        await write(text);
        text = '';
      }
    };
    if (kind === 'coo') {
      for (let r = 0; r < m.rows; r++) {
        for (let k = m.rowPtr[r]; k < m.rowPtr[r + 1]; k++) text += `${r} ${m.colIdx[k]} ${formatValue(m.values[k])}\n`;
        await flush();
      }
    } else {
      const line = async (n: number, at: (i: number) => string) => {
        for (let i = 0; i < n; i++) {
          text += i ? ` ${at(i)}` : at(i);
          if ((i & 4095) === 0) await flush();
        }
        text += '\n';
      };
      await line(m.rows + 1, (i) => String(m.rowPtr[i]));
      await line(nnz, (i) => String(m.colIdx[i]));
      await line(nnz, (i) => formatValue(m.values[i]));
    }
    await flush(true);
  });
}
