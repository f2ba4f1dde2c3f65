// Matrix Market writer: coordinate, real (or pattern), general (or symmetric: lower triangle only).
// Streamed in ~1 MB chunks through an atomic temp-file + rename, values in shortest round-trip form.
import { UserError } from '../util/errors.js';
import { writeStreamAtomic } from '../util/atomic-write.js';
import { isSymmetric } from './csr.js';
import type { CsrMatrix } from './types.js';

export interface WriteMtxOptions {
  /** Write structure only ("pattern" field, no values). */
  pattern?: boolean;
  /** Write the lower triangle with a "symmetric" header; the matrix must be symmetric. */
  symmetric?: boolean;
  /** Extra comment lines (without the leading %). */
  comments?: string[];
}

const CHUNK_CHARS = 1 << 20;

/** Shortest text that reads back as the same double (keeps -0, writes inf/nan as readers expect). */
export function formatValue(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (Number.isFinite(x)) return String(x);
  return x !== x ? 'nan' : x > 0 ? 'inf' : '-inf';
}

export async function writeMtx(path: string, m: CsrMatrix, opts: WriteMtxOptions = {}): Promise<void> {
  const symmetric = opts.symmetric ?? false;
  if (symmetric && !isSymmetric(m)) {
    throw new UserError(`${path}: cannot write a symmetric Matrix Market file: the matrix (${m.rows} x ${m.cols}) is not symmetric`);
  }
  const field = opts.pattern ? 'pattern' : 'real';
  let stored = 0;
  for (let r = 0; r < m.rows; r++) {
    for (let k = m.rowPtr[r]; k < m.rowPtr[r + 1]; k++) if (!symmetric || m.colIdx[k] <= r) stored++;
  }
  await writeStreamAtomic(path, async (write) => {
    let text = `%%MatrixMarket matrix coordinate ${field} ${symmetric ? 'symmetric' : 'general'}\n`;
    for (const c of opts.comments ?? []) text += `%${c}\n`;
    text += `${m.rows} ${m.cols} ${stored}\n`;
    const withValues = !opts.pattern;
    for (let r = 0; r < m.rows; r++) {
      const prefix = `${r + 1} `;
      for (let k = m.rowPtr[r]; k < m.rowPtr[r + 1]; k++) {
        const c = m.colIdx[k];
        if (symmetric && c > r) break; // columns are sorted: the rest of the row is upper triangle
        text += withValues ? `${prefix}${c + 1} ${formatValue(m.values[k])}\n` : `${prefix}${c + 1}\n`;
      }
      if (text.length >= CHUNK_CHARS) {
        await write(text);
        text = '';
      }
    }
    await write(text);
  });
}
