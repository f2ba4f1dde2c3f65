// Molecule-like graphs for batched SpMM of GNN workloads (`spbench gen --graph molecule`): a random
// tree of maximum degree 4 (atom k bonds to a random earlier atom with a free valence), plus about
// n/6 ring closures between atoms 4-6 bonds apart in the tree (rings of 5-7 atoms), never above
// degree 4; the matrix is the GCN-normalised adjacency with self-loops, D^-1/2 (A + I) D^-1/2.
import type { CsrMatrix } from '../types.js';
import type { Rng } from './rng.js';

/** Most bonds of an atom (carbon's valence). */
export const MAX_DEGREE = 4;
/** Ring closures join atoms this many tree bonds apart (rings of 5 to 7 atoms). */
const RING_DISTANCE = { min: 4, max: 6 } as const;

/** Bonds of n atoms: `adj` holds up to MAX_DEGREE neighbours an atom, `deg` how many. */
interface Bonds {
  n: number;
  adj: Int32Array;
  deg: Int32Array;
}

function bond(b: Bonds, u: number, v: number): void {
  b.adj[u * MAX_DEGREE + b.deg[u]++] = v;
  b.adj[v * MAX_DEGREE + b.deg[v]++] = u;
}

/** A random spanning tree: atom k (k >= 1) bonds to a uniformly drawn earlier atom of degree < 4. */
function randomTree(n: number, rng: Rng): Bonds {
  const b: Bonds = { n, adj: new Int32Array(n * MAX_DEGREE), deg: new Int32Array(n) };
  // atoms with a free valence; a tree of k atoms has 2(k-1) < 4k bond ends, so one always exists
  const open = new Int32Array(n);
  let nOpen = 0;
  if (n > 0) open[nOpen++] = 0;
  for (let k = 1; k < n; k++) {
    const at = rng.below(nOpen);
    const u = open[at];
    bond(b, u, k);
    if (b.deg[u] === MAX_DEGREE) open[at] = open[--nOpen];
    open[nOpen++] = k;
  }
  return b;
}

/**
 * Breadth-first distances from `from` in `g`, up to `depth` bonds: the atoms reached are
 * queue[0..count) in BFS order with their distances in `dist` (scratch of n entries, -1 where not
 * reached; the caller puts them back to -1 with `forget`). Returns count.
 */
function reach(g: Bonds, from: number, depth: number, dist: Int32Array, queue: Int32Array): number {
  let tail = 0;
  queue[tail++] = from;
  dist[from] = 0;
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    if (dist[u] === depth) continue;
    for (let k = 0; k < g.deg[u]; k++) {
      const v = g.adj[u * MAX_DEGREE + k];
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  return tail;
}

function forget(dist: Int32Array, queue: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) dist[queue[i]] = -1;
}

/**
 * Adds up to floor(n/6) ring closures: an atom u of degree < 4 is drawn, then a partner among the
 * atoms 4-6 bonds from u in the tree (so the ring has 5-7 atoms) with degree < 4 and at least 4 bonds
 * from u in the graph so far (no bond twice, and no smaller ring across an earlier closure); draws
 * without a partner are retried, 4·floor(n/6) + 4 draws at most.
 */
function closeRings(tree: Bonds, rng: Rng): Bonds {
  const { n } = tree;
  const b: Bonds = { n, adj: tree.adj.slice(), deg: tree.deg.slice() };
  const target = Math.floor(n / 6);
  const inTree = new Int32Array(n).fill(-1);
  const inGraph = new Int32Array(n).fill(-1);
  const treeQueue = new Int32Array(n);
  const graphQueue = new Int32Array(n);
  let rings = 0;
  for (let draw = 0; rings < target && draw < 4 * target + 4; draw++) {
    const u = rng.below(n);
    if (b.deg[u] >= MAX_DEGREE) continue;
    const reached = reach(tree, u, RING_DISTANCE.max, inTree, treeQueue);
    const near = reach(b, u, RING_DISTANCE.min - 1, inGraph, graphQueue);
    const partners: number[] = [];
    for (let i = 0; i < reached; i++) {
      const v = treeQueue[i];
      if (inTree[v] >= RING_DISTANCE.min && inGraph[v] < 0 && b.deg[v] < MAX_DEGREE) partners.push(v);
    }
    forget(inTree, treeQueue, reached);
    forget(inGraph, graphQueue, near);
    if (partners.length === 0) continue;
    bond(b, u, partners[rng.below(partners.length)]);
    rings++;
  }
  return b;
}

/**
 * One molecule-like graph of n atoms as its n x n GCN-normalised adjacency with self-loops:
 * entry (i, j) of A + I is 1/sqrt(d_i d_j), d_i = degree + 1; symmetric, both triangles stored,
 * columns sorted, values in (0, 1], at most 5 entries a row.
 */
export function generateMolecule(n: number, rng: Rng): CsrMatrix {
  const b = closeRings(randomTree(n, rng), rng);
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowPtr[i + 1] = rowPtr[i] + b.deg[i] + 1;
  const colIdx = new Int32Array(rowPtr[n]);
  const values = new Float64Array(rowPtr[n]);
  for (let i = 0; i < n; i++) {
    const row = colIdx.subarray(rowPtr[i], rowPtr[i + 1]);
    row[0] = i;
    row.set(b.adj.subarray(i * MAX_DEGREE, i * MAX_DEGREE + b.deg[i]), 1);
    row.sort();
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) values[p] = 1 / Math.sqrt((b.deg[i] + 1) * (b.deg[colIdx[p]] + 1));
  }
  return { rows: n, cols: n, rowPtr, colIdx, values };
}
