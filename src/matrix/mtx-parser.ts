// The Matrix Market line parser: banner, size line and entries of whole lines handed over by a
// chunk loop, into typed COO arrays and then canonical CSR. Used by the serial reader
// (mtx-read.ts) and by the worker threads of the parallel one (mtx-parallel.ts, mtx-worker.ts).
// Symmetric, skew-symmetric and hermitian (real) files are expanded; the diagonal is not doubled.
import { UserError } from '../util/errors.js';
import { cooToCsr, uninitFloat64, uninitInt32 } from './csr.js';
import { latin1, scanEnd, scanHadFraction, scanNumber, tokenAt } from './number-scan.js';
import type { CsrMatrix, MtxField, MtxFormat, MtxHeader, MtxSymmetry } from './types.js';

export interface MtxResult {
  header: MtxHeader;
  matrix: CsrMatrix;
  /** Set when the native parser wrote the matrix as .spb at opts.nativeOutput. */
  storedAt?: string;
  /** Which native front end parsed it (mtx-native.ts); absent: the TypeScript readers. */
  via?: 'addon' | 'mtx2spb';
}

const INT32_MAX = 0x7fffffff;
const NL = 10;

const enum State {
  Banner,
  Size,
  Entries,
  Done,
}

/** Parses whole lines handed over by the chunk loop; keeps the COO arrays and the line count. */
export class MtxParser {
  private state = State.Banner;
  private line = 0;
  private header: MtxHeader = { format: 'coordinate', field: 'real', symmetry: 'general' };
  private rows = 0;
  private cols = 0;
  private declared = 0; // entries the size line promises
  private count = 0; // entries read so far
  private n = 0; // triplets stored (mirrors included)
  private rowIdx: Int32Array = new Int32Array(0);
  private colIdx: Int32Array = new Int32Array(0);
  private values: Float64Array = new Float64Array(0);
  private rowMajor = true;
  private colMajor = true;
  private mirror = 0; // 0 general, 1 symmetric/hermitian, -1 skew-symmetric
  private ai = 0; // array format: (row, col) of the next value
  private aj = 0;

  constructor(
    private readonly path: string,
    private readonly fileBytes: number,
  ) {}

  private fail(line: number, msg: string): never {
    throw new UserError(`${this.path}:${line}: ${msg}`);
  }

  consume(buf: Buffer, end: number): void {
    let p = 0;
    while (p < end) {
      if (this.state === State.Entries) {
        p = this.header.format === 'coordinate' ? this.coordinateLines(buf, p, end) : this.arrayLines(buf, p, end);
        continue;
      }
      const nl = buf.indexOf(NL, p);
      this.line++;
      const text = latin1(buf, p, nl).replace(/\r$/, '');
      p = nl + 1;
      if (this.state === State.Banner) this.banner(text);
      else if (this.state === State.Size) this.sizeLine(text);
      else if (!isBlankOrComment(text)) this.tooMany(this.line);
    }
  }

  private banner(text: string): void {
    const t = text.trim().split(/\s+/);
    if (t[0]?.toLowerCase() !== '%%matrixmarket') {
      this.fail(1, `not a Matrix Market file (the first line must start with %%MatrixMarket)`);
    }
    if (t.length !== 5) this.fail(1, `banner must be "%%MatrixMarket matrix <format> <field> <symmetry>", got "${text.trim()}"`);
    const [object, format, field, symmetry] = t.slice(1).map((s) => s.toLowerCase());
    if (object !== 'matrix') this.fail(1, `unsupported object "${object}" (only "matrix" is supported)`);
    if (format !== 'coordinate' && format !== 'array') this.fail(1, `unknown format "${format}" (expected coordinate or array)`);
    if (field === 'complex') this.fail(1, 'complex matrices are unsupported (spbench handles real, integer and pattern fields)');
    if (field !== 'real' && field !== 'integer' && field !== 'pattern') {
      this.fail(1, `unknown field "${field}" (expected real, integer, pattern or complex)`);
    }
    if (!['general', 'symmetric', 'skew-symmetric', 'hermitian'].includes(symmetry)) {
      this.fail(1, `unknown symmetry "${symmetry}" (expected general, symmetric, skew-symmetric or hermitian)`);
    }
    if (field === 'pattern' && format === 'array') this.fail(1, 'the pattern field is not allowed with the array format');
    if (field === 'pattern' && symmetry === 'skew-symmetric') this.fail(1, 'the pattern field cannot be skew-symmetric');
    this.header = { format: format as MtxFormat, field: field as MtxField, symmetry: symmetry as MtxSymmetry };
    this.mirror = symmetry === 'general' ? 0 : symmetry === 'skew-symmetric' ? -1 : 1;
    this.state = State.Size;
  }

  private sizeLine(text: string): void {
    if (isBlankOrComment(text)) return;
    const coordinate = this.header.format === 'coordinate';
    const want = coordinate ? 3 : 2;
    const t = text.trim().split(/\s+/);
    const what = coordinate ? '"rows cols entries"' : '"rows cols"';
    if (t.length !== want || !t.every((s) => /^\d+$/.test(s))) this.fail(this.line, `size line must be ${what} (non-negative integers), got "${text.trim()}"`);
    const [rows, cols, nnz] = t.map(Number);
    if (rows > INT32_MAX || cols > INT32_MAX) this.fail(this.line, `matrix dimensions ${rows} x ${cols} exceed 2^31-1`);
    if (this.mirror !== 0 && rows !== cols) this.fail(this.line, `a ${this.header.symmetry} matrix must be square, got ${rows} x ${cols}`);
    this.rows = rows;
    this.cols = cols;
    if (coordinate) {
      if (!Number.isSafeInteger(nnz)) this.fail(this.line, `entry count ${t[2]} is too large`);
      this.declared = nnz;
    } else {
      const n = rows;
      this.declared = this.mirror === 0 ? rows * cols : this.mirror === 1 ? (n * (n + 1)) / 2 : (n * (n - 1)) / 2;
    }
    // Start from what the file can possibly hold (an entry takes at least 2 bytes) and grow.
    const perEntry = coordinate ? (this.header.field === 'pattern' ? 4 : 6) : 2;
    const guess = Math.min(this.declared, Math.ceil(this.fileBytes / perEntry) + 16) * (this.mirror !== 0 ? 2 : 1);
    this.allocate(Math.max(16, guess));
    this.state = this.declared === 0 ? State.Done : State.Entries;
    if (this.mirror !== 0) this.rowMajor = this.colMajor = false;
    if (this.mirror < 0) this.ai = 1;
    if (!coordinate) {
      this.rowMajor = false;
      this.colMajor = this.mirror === 0;
    }
  }

  private allocate(cap: number): void {
    const r = uninitInt32(cap), c = uninitInt32(cap), v = uninitFloat64(cap);
    r.set(this.rowIdx.subarray(0, this.n));
    c.set(this.colIdx.subarray(0, this.n));
    v.set(this.values.subarray(0, this.n));
    this.rowIdx = r;
    this.colIdx = c;
    this.values = v;
  }

  private tooMany(line: number): never {
    this.fail(line, `more entries than the ${this.declared} the size line declares`);
  }

  /** Hot loop: coordinate lines "row col [value]" from p up to end (end is just past a newline). */
  private coordinateLines(buf: Buffer, p: number, end: number): number {
    const withValue = this.header.field !== 'pattern';
    const integer = this.header.field === 'integer';
    const mirror = this.mirror;
    const rows = this.rows, cols = this.cols, declared = this.declared;
    let { line, count, n, rowMajor, colMajor } = this;
    let rowIdx = this.rowIdx, colIdx = this.colIdx, values = this.values;
    let pr = -1, pc = -1;
    if (n > 0) {
      pr = rowIdx[n - 1];
      pc = colIdx[n - 1];
    }
    while (p < end) {
      line++;
      let c = buf[p];
      while (c === 32 || c === 9) c = buf[++p];
      if (c === NL || c === 13 || c === 37) {
        p = buf.indexOf(NL, p) + 1; // blank or comment line
        continue;
      }
      if (count === declared) {
        this.state = State.Done;
        this.tooMany(line);
      }
      // row index (the two index loops stay inline: this is the per-entry hot path)
      let d = c - 48;
      if (!(d >= 0 && d <= 9)) this.fail(line, `expected a row index, got "${tokenAt(buf, p)}"`);
      let r = 0;
      do {
        r = r * 10 + d;
        d = buf[++p] - 48;
      } while (d >= 0 && d <= 9);
      c = buf[p];
      if (c !== 32 && c !== 9) this.fail(line, c === NL || c === 13 ? 'expected a column index after the row index' : `bad row index "${tokenAt(buf, p - 1)}"`);
      do c = buf[++p];
      while (c === 32 || c === 9);
      // column index
      d = c - 48;
      if (!(d >= 0 && d <= 9)) this.fail(line, c === NL || c === 13 ? 'expected a column index after the row index' : `expected a column index, got "${tokenAt(buf, p)}"`);
      let col = 0;
      do {
        col = col * 10 + d;
        d = buf[++p] - 48;
      } while (d >= 0 && d <= 9);
      c = buf[p];
      let v = 1;
      if (withValue) {
        if (c !== 32 && c !== 9) this.fail(line, c === NL || c === 13 ? 'expected a value after the column index' : `bad column index`);
        do c = buf[++p];
        while (c === 32 || c === 9);
        if (c === NL || c === 13) this.fail(line, 'expected a value after the column index');
        v = scanNumber(buf, p);
        if (scanEnd < 0) this.fail(line, `bad value "${tokenAt(buf, p)}"`);
        if (integer && scanHadFraction) this.fail(line, `integer field expects an integer value, got "${tokenAt(buf, p)}"`);
        p = scanEnd;
        c = buf[p];
      }
      while (c === 32 || c === 9 || c === 13) c = buf[++p];
      if (c !== NL) this.fail(line, `unexpected text "${tokenAt(buf, p)}" after the entry (expected ${withValue ? 3 : 2} fields)`);
      p++;
      if (r < 1 || r > rows) this.fail(line, `row index ${r} out of range 1..${rows}`);
      if (col < 1 || col > cols) this.fail(line, `column index ${col} out of range 1..${cols}`);
      r--;
      col--;
      count++;
      if (n + 2 > rowIdx.length) {
        this.n = n;
        this.allocate(rowIdx.length * 2);
        rowIdx = this.rowIdx;
        colIdx = this.colIdx;
        values = this.values;
      }
      if (mirror === 0) {
        rowMajor &&= r > pr || (r === pr && col > pc);
        colMajor &&= col > pc || (col === pc && r > pr);
        pr = r;
        pc = col;
      } else if (r !== col) {
        if (r < col) this.fail(line, `entry (${r + 1}, ${col + 1}) is above the diagonal; a ${this.header.symmetry} file stores only the lower triangle`);
        rowIdx[n] = col;
        colIdx[n] = r;
        values[n++] = mirror * v;
      } else if (mirror < 0 && v !== 0) {
        this.fail(line, `skew-symmetric matrix has a non-zero diagonal entry (${r + 1}, ${col + 1})`);
      }
      rowIdx[n] = r;
      colIdx[n] = col;
      values[n++] = v;
      if (count === declared) {
        // remaining lines may only be blank or comments
        this.state = State.Done;
        break;
      }
    }
    // errors throw straight out (the parser is then discarded); normal exits save the state
    this.line = line;
    this.count = count;
    this.n = n;
    this.rowMajor = rowMajor;
    this.colMajor = colMajor;
    return p;
  }

  /** Array lines: one value per line, column-major; zeros are not stored. */
  private arrayLines(buf: Buffer, p: number, end: number): number {
    const rows = this.rows;
    while (p < end && this.count < this.declared) {
      this.line++;
      let c = buf[p];
      while (c === 32 || c === 9) c = buf[++p];
      if (c === NL || c === 13 || c === 37) {
        p = buf.indexOf(NL, p) + 1;
        continue;
      }
      const v = scanNumber(buf, p);
      if (scanEnd < 0) this.fail(this.line, `bad value "${tokenAt(buf, p)}"`);
      if (this.header.field === 'integer' && scanHadFraction) this.fail(this.line, `integer field expects an integer value, got "${tokenAt(buf, p)}"`);
      p = scanEnd;
      c = buf[p];
      while (c === 32 || c === 9 || c === 13) c = buf[++p];
      if (c !== NL) this.fail(this.line, `unexpected text "${tokenAt(buf, p)}" after the value (array files hold one value per line)`);
      p++;
      // column-major position; symmetric files list the lower triangle only (skew: without diagonal)
      const i = this.ai, j = this.aj;
      this.count++;
      if (++this.ai === rows) {
        this.aj++;
        this.ai = this.mirror === 0 ? 0 : this.mirror > 0 ? this.aj : this.aj + 1;
      }
      if (v === 0) continue;
      if (this.n + 2 > this.rowIdx.length) this.allocate(this.rowIdx.length * 2);
      this.rowIdx[this.n] = i;
      this.colIdx[this.n] = j;
      this.values[this.n++] = v;
      if (this.mirror !== 0 && i !== j) {
        this.rowIdx[this.n] = j;
        this.colIdx[this.n] = i;
        this.values[this.n++] = this.mirror * v;
      }
    }
    if (this.count === this.declared) this.state = State.Done;
    return p;
  }

  /** True once the banner and size line are read and entries are expected. */
  get expectingEntries(): boolean {
    return this.state === State.Entries;
  }

  get entriesDeclared(): number {
    return this.declared;
  }

  /** For a parallel part: after banner and size line, read entries without the count limit. */
  entriesOnly(): void {
    this.declared = Number.POSITIVE_INFINITY;
    this.state = State.Entries;
  }

  /** What a part parser collected (triplets in file order). */
  part() {
    const { count, n, rowIdx, colIdx, values, rowMajor, colMajor, rows, cols, header } = this;
    return { count, n, rowIdx, colIdx, values, rowMajor, colMajor, rows, cols, header };
  }

  finish(): MtxResult {
    if (this.state === State.Banner) this.fail(1, 'empty file (expected a %%MatrixMarket banner)');
    if (this.state === State.Size) this.fail(this.line + 1, 'file ends before the size line');
    if (this.state === State.Entries) {
      this.fail(this.line + 1, `file ends after ${this.count} of the ${this.declared} entries the size line declares`);
    }
    const coo = { rows: this.rows, cols: this.cols, nnz: this.n, rowIdx: this.rowIdx, colIdx: this.colIdx, values: this.values };
    const order = this.rowMajor ? 'row-major' : this.colMajor ? 'col-major' : 'unknown';
    return { header: this.header, matrix: cooToCsr(coo, order) };
  }
}

function isBlankOrComment(text: string): boolean {
  const t = text.trimStart();
  return t === '' || t.startsWith('%');
}

/** Byte offset just past the size line (banner, comments, blank lines, size line); -1 if not found. */
export function preludeEnd(head: Buffer): number {
  let p = 0;
  let sawBanner = false;
  while (p < head.length) {
    const nl = head.indexOf(10, p);
    if (nl < 0) return -1;
    const line = head.toString('latin1', p, nl).trim();
    p = nl + 1;
    if (!sawBanner) {
      sawBanner = true;
      continue;
    }
    if (line === '' || line.startsWith('%')) continue;
    return p;
  }
  return -1;
}
