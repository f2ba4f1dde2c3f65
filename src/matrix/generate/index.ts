// Seeded, reproducible matrix generators: the public surface used by `spbench gen` and the benches.
import type { CsrMatrix } from '../types.js';
import { generateCircuit } from './circuit.js';
import { generateFem } from './fem.js';
import { generateLongrow } from './longrow.js';
import { generatePowerlaw } from './powerlaw.js';
import { generateRmat } from './rmat.js';
import { generateIrregular, generateMultimodal, generatePerm } from './rowlengths.js';
import { rngFor, type Rng } from './rng.js';
import { parseGenSpec, type GenSpec } from './spec.js';
import { generateStencil } from './stencil.js';
import { generateBanded, generateUniform } from './uniform.js';

export { parseRange, type Range } from './range.js';
export { generateBatch, type BatchOptions } from './batch.js';
export { GRAPH_KINDS, GRAPH_HELP, parseGraphKind, type GraphKind } from './graph.js';
export { parseGenSpec, formatGenSpec, nnzBound, MAX_NNZ, SPEC_HELP, type GenSpec } from './spec.js';
export { parseSeed, rngFor, Rng, MAX_SEED } from './rng.js';

type Generator<K extends GenSpec['kind']> = (spec: Extract<GenSpec, { kind: K }>, rng: Rng) => CsrMatrix;

/** The generator of every kind (a table, so a new kind without one does not compile). */
const GENERATORS: { [K in GenSpec['kind']]: Generator<K> } = {
  stencil: (spec) => generateStencil(spec), // deterministic: no draws
  rmat: generateRmat,
  uniform: generateUniform,
  banded: generateBanded,
  powerlaw: generatePowerlaw,
  fem: generateFem,
  circuit: generateCircuit,
  longrow: generateLongrow,
  perm: generatePerm,
  multimodal: generateMultimodal,
  irregular: generateIrregular,
};

/**
 * One large matrix from a spec (parsed, or its text); stencils are deterministic, the others use
 * stream 0 of `seed` (fem for its values only).
 */
export function generateMatrix(specOrText: GenSpec | string, seed: number): CsrMatrix {
  const spec = typeof specOrText === 'string' ? parseGenSpec(specOrText) : specOrText;
  const generate = GENERATORS[spec.kind] as Generator<typeof spec.kind>;
  return generate(spec, rngFor(seed, 0));
}
