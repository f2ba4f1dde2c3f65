// Specs of single large matrices (for SpGEMM): "kind:key=value,key=value".
import { UserError } from '../../util/errors.js';

export type GenSpec =
  | { kind: 'stencil'; dims: 2 | 3; n: number; points: 5 | 9 | 7 | 27 }
  | { kind: 'rmat'; scale: number; ef: number; a: number; b: number; c: number }
  | { kind: 'uniform'; rows: number; cols: number; nnzRow: number }
  | { kind: 'banded'; n: number; bw: number };

/** Indices are int32 and row pointers int32 in the native code: nnz must stay below 2^31. */
export const MAX_NNZ = 2 ** 31 - 1;
const MAX_DIM = 2 ** 31 - 1;

/** Help text of the spec syntax (for `spbench gen --help` and other commands that take specs). */
export const SPEC_HELP = `  stencil:dims=2|3,n=N,points=5|9 (2-D) or 7|27 (3-D)  finite-difference stencil on an n^dims grid;
                                                       centre points-1, neighbours -1
  rmat:scale=S,ef=E[,a=0.57,b=0.19,c=0.19]            R-MAT graph: 2^S vertices, E·2^S edges drawn,
                                                       duplicates merged; d = 1-a-b-c
  uniform:rows=R[,cols=C],nnz_row=K                   K distinct random columns in every row
  banded:n=N,bw=W                                     every entry with |i-j| <= W
  Random values lie in (-1, 1) with 24 significant bits, so f32 and f64 files hold the same numbers.
  At most 2^31-1 nonzeros.`;

const KEYS: Record<GenSpec['kind'], { required: string[]; optional: string[] }> = {
  stencil: { required: ['dims', 'n', 'points'], optional: [] },
  rmat: { required: ['scale', 'ef'], optional: ['a', 'b', 'c'] },
  uniform: { required: ['rows', 'nnz_row'], optional: ['cols'] },
  banded: { required: ['n', 'bw'], optional: [] },
};

/** Parses a generator spec; every error names the spec and says what is accepted. */
export function parseGenSpec(text: string): GenSpec {
  const fail = (why: string): never => {
    throw new UserError(`bad generator spec "${text}": ${why}`);
  };
  const colon = text.indexOf(':');
  const kind = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (!(kind in KEYS)) fail(`unknown kind "${kind}"; use one of ${Object.keys(KEYS).join(', ')}`);
  const k = kind as GenSpec['kind'];
  const allowed = [...KEYS[k].required, ...KEYS[k].optional];
  const raw = new Map<string, string>();
  const body = colon < 0 ? '' : text.slice(colon + 1);
  for (const part of body.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) fail(`"${part.trim()}" is not key=value`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!allowed.includes(key)) fail(`unknown key "${key}" for ${k}; keys: ${allowed.join(', ')}`);
    if (raw.has(key)) fail(`key "${key}" given twice`);
    raw.set(key, value);
  }
  for (const key of KEYS[k].required) if (!raw.has(key)) fail(`missing ${key}=`);

  const int = (key: string, min: number, max = MAX_DIM): number => {
    const v = raw.get(key) as string;
    if (!/^\d+$/.test(v)) fail(`${key}=${v} is not a non-negative integer`);
    const x = Number(v);
    if (x < min || x > max) fail(`${key}=${v} must be from ${min} to ${max}`);
    return x;
  };
  const prob = (key: string, dflt: number): number => {
    const v = raw.get(key);
    if (v === undefined) return dflt;
    const x = Number(v);
    if (v === '' || !Number.isFinite(x) || x < 0 || x > 1) fail(`${key}=${v} must be a probability from 0 to 1`);
    return x;
  };

  let spec: GenSpec;
  switch (k) {
    case 'stencil': {
      const dims = int('dims', 2, 3) as 2 | 3;
      const points = int('points', 1, 27);
      const ok = dims === 2 ? [5, 9] : [7, 27];
      if (!ok.includes(points)) fail(`points=${points} is not a ${dims}-D stencil; use ${ok.join(' or ')}`);
      spec = { kind: 'stencil', dims, n: int('n', 1), points: points as 5 | 9 | 7 | 27 };
      break;
    }
    case 'rmat': {
      const a = prob('a', 0.57);
      const b = prob('b', 0.19);
      const c = prob('c', 0.19);
      // a tolerance of 1e-9 lets "a=0.25,b=0.25,c=0.5" through despite decimal rounding
      if (a + b + c > 1 + 1e-9) fail(`a + b + c = ${a + b + c} exceeds 1 (d = 1 - a - b - c)`);
      spec = { kind: 'rmat', scale: int('scale', 0, 30), ef: int('ef', 1), a, b, c };
      break;
    }
    case 'uniform': {
      const rows = int('rows', 1);
      const cols = raw.has('cols') ? int('cols', 1) : rows;
      const nnzRow = int('nnz_row', 0);
      if (nnzRow > cols) fail(`nnz_row=${nnzRow} exceeds cols=${cols} (columns of a row are distinct)`);
      spec = { kind: 'uniform', rows, cols, nnzRow };
      break;
    }
    case 'banded':
      spec = { kind: 'banded', n: int('n', 1), bw: int('bw', 0) };
      break;
  }
  const bound = nnzBound(spec);
  if (bound > MAX_NNZ) {
    fail(`it would have up to ${bound.toLocaleString('en-US')} nonzeros, more than the limit of 2^31-1 = ${MAX_NNZ.toLocaleString('en-US')}`);
  }
  return spec;
}

/** Nonzeros of the matrix (an upper bound for R-MAT, whose duplicate edges merge). */
export function nnzBound(spec: GenSpec): number {
  switch (spec.kind) {
    case 'stencil':
      return spec.points * spec.n ** spec.dims;
    case 'rmat':
      return spec.ef * 2 ** spec.scale;
    case 'uniform':
      return spec.rows * spec.nnzRow;
    case 'banded': {
      const w = Math.min(spec.bw, spec.n - 1);
      return spec.n * (2 * w + 1) - w * (w + 1);
    }
  }
}

/** The canonical text of a spec (parseGenSpec(formatGenSpec(s)) equals s). */
export function formatGenSpec(spec: GenSpec): string {
  switch (spec.kind) {
    case 'stencil':
      return `stencil:dims=${spec.dims},n=${spec.n},points=${spec.points}`;
    case 'rmat':
      return `rmat:scale=${spec.scale},ef=${spec.ef},a=${spec.a},b=${spec.b},c=${spec.c}`;
    case 'uniform':
      return `uniform:rows=${spec.rows},cols=${spec.cols},nnz_row=${spec.nnzRow}`;
    case 'banded':
      return `banded:n=${spec.n},bw=${spec.bw}`;
  }
}
