// The kinds of small graphs a batch can be made of instead of random rows (`--graph KIND`), with
// what the commands and the planner need to know of each: help text and nonzeros per row.
import { UserError } from '../../util/errors.js';
import type { Range } from './range.js';

export const GRAPH_KINDS = ['molecule'] as const;
export type GraphKind = (typeof GRAPH_KINDS)[number];

/** One or two lines per kind for --help. */
export const GRAPH_HELP =
  'molecule: n atoms (n drawn from --dim per graph), a random tree of maximum degree 4 plus about n/6 ring\n' +
  '  closures (rings of 5-7 atoms); the matrix is the GCN-normalised adjacency with self-loops D^-1/2 (A+I) D^-1/2';

/** Checks a --graph value; an unknown kind is a usage error listing the kinds. */
export function parseGraphKind(text: string): GraphKind {
  if ((GRAPH_KINDS as readonly string[]).includes(text)) return text as GraphKind;
  throw new UserError(`--graph: unknown graph kind "${text}"; the kinds are: ${GRAPH_KINDS.join(', ')}`);
}

/** Most nonzeros in a row of a graph of each kind (molecule: degree at most 4, plus the self-loop). */
const MAX_NNZ_ROW: { [K in GraphKind]: number } = { molecule: 5 };

export function graphMaxNnzRow(kind: GraphKind): number {
  return MAX_NNZ_ROW[kind];
}

/**
 * Expected nonzeros a row of a batch whose sizes are drawn from `dim`: n self-loops plus both ends
 * of n-1 tree bonds and about n/6 ring bonds, over n atoms, at the mean n.
 */
export function graphMeanNnzRow(kind: GraphKind, dim: Range): number {
  const n = (dim.min + dim.max) / 2;
  return Math.min(graphMaxNnzRow(kind), 1 + (2 * (n - 1 + Math.floor(n / 6))) / n);
}
