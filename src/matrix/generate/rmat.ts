// R-MAT graphs (Chakrabarti, Zhan, Faloutsos 2004): each edge picks one quadrant of the adjacency
// matrix per level, with probabilities a (top-left), b (top-right), c (bottom-left) and
// d = 1 - a - b - c, down to a single cell. Duplicate edges merge into one entry; self-loops stay.
// No noise or vertex permutation is applied, so vertex 0 is the heaviest (the plain model).
import { cooToCsr } from '../csr.js';
import type { CsrMatrix } from '../types.js';
import type { Rng } from './rng.js';

export interface RmatSpec {
  scale: number;
  ef: number;
  a: number;
  b: number;
  c: number;
}

const TWO32 = 4294967296;

export function generateRmat(spec: RmatSpec, rng: Rng): CsrMatrix {
  const n = 2 ** spec.scale;
  const edges = spec.ef * n;
  // Compare raw 32-bit draws with integer thresholds: exact, and no float draw per level.
  const ta = threshold(spec.a);
  const tab = threshold(spec.a + spec.b);
  const tabc = threshold(spec.a + spec.b + spec.c);
  const src = new Int32Array(edges);
  const dst = new Int32Array(edges);
  for (let e = 0; e < edges; e++) {
    let r = 0;
    let c = 0;
    for (let bit = n >>> 1; bit > 0; bit >>>= 1) {
      const u = rng.nextU32();
      if (u < ta) continue;
      if (u < tab) c |= bit;
      else if (u < tabc) r |= bit;
      else {
        r |= bit;
        c |= bit;
      }
    }
    src[e] = r;
    dst[e] = c;
  }
  // Values are drawn after merging, so a merged entry is one value in (-1, 1), not a sum.
  const m = cooToCsr({ rows: n, cols: n, nnz: edges, rowIdx: src, colIdx: dst, values: new Float64Array(edges) });
  for (let e = 0; e < m.values.length; e++) m.values[e] = rng.value();
  return m;
}

function threshold(p: number): number {
  return Math.min(TWO32, Math.round(p * TWO32));
}
