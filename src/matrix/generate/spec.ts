// Specs of single large matrices (for SpGEMM): "kind:key=value,key=value".
import { UserError } from '../../util/errors.js';

export type GenSpec =
  | { kind: 'stencil'; dims: 2 | 3; n: number; points: 5 | 9 | 7 | 27 }
  | { kind: 'rmat'; scale: number; ef: number; a: number; b: number; c: number }
  | { kind: 'uniform'; rows: number; cols: number; nnzRow: number }
  | { kind: 'banded'; n: number; bw: number }
  | PowerlawSpec
  | FemSpec
  | CircuitSpec
  | LongrowSpec
  | PermSpec
  | MultimodalSpec
  | IrregularSpec;

/** Out-degrees from a power law of exponent alpha clipped to [1, max], mean about avg; Zipf(skew) columns. */
export interface PowerlawSpec { kind: 'powerlaw'; rows: number; cols: number; avg: number; max: number; alpha: number; skew: number }
/** The full 3^dims-point stencil on an n^dims grid, every grid point a dense block x block. */
export interface FemSpec { kind: 'fem'; dims: 2 | 3; n: number; block: number }
/** Diagonal + nnzRow-1 random columns a row, plus `hubs` nets of one node joined to hubSize others. */
export interface CircuitSpec { kind: 'circuit'; rows: number; nnzRow: number; hubs: number; hubSize: number }
/** Band lo..hi around the diagonal (none when band is null), plus longRows full rows and longCols full columns. */
export interface LongrowSpec { kind: 'longrow'; n: number; band: { lo: number; hi: number } | null; longRows: number; longCols: number }
/** One entry a row, at distinct random columns of [0, cols). */
export interface PermSpec { kind: 'perm'; n: number; cols: number }
/** Row lengths drawn from lens with the integer relative weights. */
export interface MultimodalSpec { kind: 'multimodal'; rows: number; cols: number; lens: number[]; weights: number[] }
/** Row lengths uniform in [min, max], entries near the diagonal, each far (anywhere) with probability far. */
export interface IrregularSpec { kind: 'irregular'; n: number; min: number; max: number; far: number }

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
  powerlaw:rows=R[,cols=R],avg=K,max=M[,alpha=2.1][,skew=1]
                                                       web-like: out-degrees from a power law of exponent
                                                       alpha in [1, M], scaled to a mean of about K (at
                                                       most K); columns Zipf(skew) over a random order of
                                                       the columns (hub columns; skew=0: uniform)
  fem:dims=2|3,n=N,block=B                            FEM-like: 9-/27-point stencil on an n^dims grid,
                                                       every point a dense BxB block (rows n^dims·B,
                                                       up to 9·B / 27·B a row)
  circuit:rows=R,nnz_row=K,hubs=H,hub_size=S          circuit-like: diagonal + K-1 random columns a row
                                                       (half near the diagonal), plus H hub nets: a hub
                                                       row and a hub column of S random nodes each
  longrow:n=N[,bw=W|,bw_lo=W1,bw_hi=W2],long_rows=K[,long_cols=L]
                                                       band i-W1 <= j <= i+W2 (bw=W: both W; one of
                                                       bw_lo/bw_hi alone: the other 0; no bw key: no
                                                       band), plus K full rows and L (0) full columns
                                                       at random positions; bw=1: tridiagonal
  perm:n=N[,cols=N]                                   one entry a row at distinct random columns
                                                       (a scaled permutation when cols = n)
  multimodal:rows=R[,cols=R],lens=L1/L2/..,weights=W1/W2/..
                                                       row length Li with relative integer weight Wi,
                                                       distinct random columns
  irregular:n=N,min=A,max=B[,far=0.05]                irregular band: A..B entries a row within 4·B of
                                                       the diagonal, each anywhere with probability far
  A cols key makes a rectangular matrix (uniform, powerlaw, perm, multimodal).
  Random values lie in (-1, 1) with 24 significant bits, so f32 and f64 files hold the same numbers.
  At most 2^31-1 nonzeros.`;

const KEYS: Record<GenSpec['kind'], { required: string[]; optional: string[] }> = {
  stencil: { required: ['dims', 'n', 'points'], optional: [] },
  rmat: { required: ['scale', 'ef'], optional: ['a', 'b', 'c'] },
  uniform: { required: ['rows', 'nnz_row'], optional: ['cols'] },
  banded: { required: ['n', 'bw'], optional: [] },
  powerlaw: { required: ['rows', 'avg', 'max'], optional: ['cols', 'alpha', 'skew'] },
  fem: { required: ['dims', 'n', 'block'], optional: [] },
  circuit: { required: ['rows', 'nnz_row', 'hubs', 'hub_size'], optional: [] },
  longrow: { required: ['n', 'long_rows'], optional: ['bw', 'bw_lo', 'bw_hi', 'long_cols'] },
  perm: { required: ['n'], optional: ['cols'] },
  multimodal: { required: ['rows', 'lens', 'weights'], optional: ['cols'] },
  irregular: { required: ['n', 'min', 'max'], optional: ['far'] },
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

  const real = (key: string, dflt: number, min: number, max: number): number => {
    const v = raw.get(key);
    if (v === undefined) return dflt;
    const x = Number(v);
    if (!/^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v) || !Number.isFinite(x)) fail(`${key}=${v} is not a non-negative number`);
    if (x < min || x > max) fail(`${key}=${v} must be from ${min} to ${max}`);
    return x;
  };
  /** "a/b/c": a list of non-negative integers. */
  const ints = (key: string): number[] => {
    const v = raw.get(key) as string;
    const parts = v.split('/');
    if (parts.some((p) => !/^\d+$/.test(p.trim()))) fail(`${key}=${v} must be non-negative integers separated by "/" (e.g. ${key}=2/24/600)`);
    const xs = parts.map((p) => Number(p.trim()));
    for (const x of xs) if (x > MAX_DIM) fail(`${key}=${v}: ${x} is more than ${MAX_DIM}`);
    return xs;
  };
  const colsOf = (rows: number) => (raw.has('cols') ? int('cols', 1) : rows);

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
    case 'powerlaw': {
      const rows = int('rows', 1);
      const cols = colsOf(rows);
      const max = int('max', 1);
      if (max > cols) fail(`max=${max} exceeds cols=${cols} (columns of a row are distinct)`);
      const avg = real('avg', 1, 1, max);
      const skew = real('skew', 1, 0, 10);
      spec = { kind: 'powerlaw', rows, cols, avg, max, alpha: real('alpha', 2.1, 0, 10), skew };
      break;
    }
    case 'fem': {
      const dims = int('dims', 2, 3) as 2 | 3;
      const n = int('n', 1);
      const block = int('block', 1);
      const rows = n ** dims * block;
      if (rows > MAX_DIM) fail(`it would have ${rows.toLocaleString('en-US')} rows (n^dims·block), more than ${MAX_DIM.toLocaleString('en-US')}`);
      spec = { kind: 'fem', dims, n, block };
      break;
    }
    case 'circuit': {
      const rows = int('rows', 1);
      const nnzRow = int('nnz_row', 1);
      if (nnzRow > rows) fail(`nnz_row=${nnzRow} exceeds rows=${rows} (columns of a row are distinct)`);
      const hubs = int('hubs', 0);
      if (hubs > rows) fail(`hubs=${hubs} exceeds rows=${rows} (hub nodes are distinct)`);
      const hubSize = int('hub_size', 0);
      if (hubSize > rows - 1) fail(`hub_size=${hubSize} must be below rows=${rows} (a hub joins distinct other nodes)`);
      spec = { kind: 'circuit', rows, nnzRow, hubs, hubSize };
      break;
    }
    case 'longrow': {
      const n = int('n', 1);
      if (raw.has('bw') && (raw.has('bw_lo') || raw.has('bw_hi'))) fail('give either bw= or bw_lo=/bw_hi=, not both');
      let band: { lo: number; hi: number } | null = null;
      if (raw.has('bw')) band = { lo: int('bw', 0), hi: int('bw', 0) };
      else if (raw.has('bw_lo') || raw.has('bw_hi')) band = { lo: raw.has('bw_lo') ? int('bw_lo', 0) : 0, hi: raw.has('bw_hi') ? int('bw_hi', 0) : 0 };
      const longRows = int('long_rows', 0, n);
      const longCols = raw.has('long_cols') ? int('long_cols', 0, n) : 0;
      spec = { kind: 'longrow', n, band, longRows, longCols };
      break;
    }
    case 'perm': {
      const n = int('n', 1);
      const cols = colsOf(n);
      if (cols < n) fail(`cols=${cols} is below n=${n} (every row needs its own column)`);
      spec = { kind: 'perm', n, cols };
      break;
    }
    case 'multimodal': {
      const rows = int('rows', 1);
      const cols = colsOf(rows);
      const lens = ints('lens');
      const weights = ints('weights');
      if (weights.length !== lens.length) fail(`lens has ${lens.length} lengths but weights has ${weights.length} weights`);
      for (const len of lens) if (len > cols) fail(`lens: ${len} exceeds cols=${cols} (columns of a row are distinct)`);
      const total = weights.reduce((a, b) => a + b, 0);
      if (total === 0) fail('weights are all 0');
      if (total > 2 ** 32) fail(`weights add up to ${total}, more than 2^32`);
      spec = { kind: 'multimodal', rows, cols, lens, weights };
      break;
    }
    case 'irregular': {
      const n = int('n', 1);
      const min = int('min', 0, n);
      const max = int('max', 0, n);
      if (min > max) fail(`min=${min} is greater than max=${max}`);
      spec = { kind: 'irregular', n, min, max, far: prob('far', 0.05) };
      break;
    }
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
    case 'banded':
      return bandNnz(spec.n, { lo: spec.bw, hi: spec.bw });
    case 'powerlaw':
      return Math.floor(spec.avg * spec.rows); // degrees are scaled to a total of at most this
    case 'fem': {
      // the full stencil: along each axis offsets -1, 0, 1 keep n-1, n, n-1 positions: 3n-2 pairs
      return (3 * spec.n - 2) ** spec.dims * spec.block * spec.block;
    }
    case 'circuit':
      return spec.rows * spec.nnzRow + 2 * spec.hubs * spec.hubSize;
    case 'longrow':
      return bandNnz(spec.n, spec.band) + (spec.longRows + spec.longCols) * spec.n;
    case 'perm':
      return spec.n;
    case 'multimodal':
      return spec.rows * Math.max(...spec.lens.filter((_, i) => spec.weights[i] > 0));
    case 'irregular':
      return spec.n * spec.max;
  }
}

/** Entries (i, j) of an n x n matrix with i - lo <= j <= i + hi (0 without a band). */
export function bandNnz(n: number, band: { lo: number; hi: number } | null): number {
  if (!band) return 0;
  const side = (w: number) => {
    const v = Math.min(w, n - 1);
    return v * n - (v * (v + 1)) / 2; // sum over diagonals 1..v of n - d
  };
  return n + side(band.lo) + side(band.hi);
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
    case 'powerlaw':
      return `powerlaw:rows=${spec.rows},cols=${spec.cols},avg=${spec.avg},max=${spec.max},alpha=${spec.alpha},skew=${spec.skew}`;
    case 'fem':
      return `fem:dims=${spec.dims},n=${spec.n},block=${spec.block}`;
    case 'circuit':
      return `circuit:rows=${spec.rows},nnz_row=${spec.nnzRow},hubs=${spec.hubs},hub_size=${spec.hubSize}`;
    case 'longrow': {
      const b = spec.band;
      const band = !b ? '' : b.lo === b.hi ? `,bw=${b.lo}` : `,bw_lo=${b.lo},bw_hi=${b.hi}`;
      return `longrow:n=${spec.n}${band},long_rows=${spec.longRows},long_cols=${spec.longCols}`;
    }
    case 'perm':
      return `perm:n=${spec.n},cols=${spec.cols}`;
    case 'multimodal':
      return `multimodal:rows=${spec.rows},cols=${spec.cols},lens=${spec.lens.join('/')},weights=${spec.weights.join('/')}`;
    case 'irregular':
      return `irregular:n=${spec.n},min=${spec.min},max=${spec.max},far=${spec.far}`;
  }
}
