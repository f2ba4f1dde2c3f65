// Seeded, reproducible matrix generators: the public surface used by `spbench gen` and the benches.
import type { CsrMatrix } from '../types.js';
import { generateCircuit } from './circuit.js';
import { generateFem } from './fem.js';
import { generateLongrow } from './longrow.js';
import { generatePowerlaw } from './powerlaw.js';
import { generateRmat } from './rmat.js';
import { generateIrregular, generateMultimodal, generatePerm } from './rowlengths.js';
import { rngFor } from './rng.js';
import { parseGenSpec, type GenSpec } from './spec.js';
import { generateStencil } from './stencil.js';
import { generateBanded, generateUniform } from './uniform.js';

export { parseRange, type Range } from './range.js';
export { generateBatch, type BatchOptions } from './batch.js';
export { parseGenSpec, formatGenSpec, nnzBound, MAX_NNZ, SPEC_HELP, type GenSpec } from './spec.js';
export { parseSeed, rngFor, Rng, MAX_SEED } from './rng.js';

/**
 * One large matrix from a spec (parsed, or its text); stencils are deterministic, the others use
 * stream 0 of `seed` (fem for its values only).
 */
export function generateMatrix(specOrText: GenSpec | string, seed: number): CsrMatrix {
  const spec = typeof specOrText === 'string' ? parseGenSpec(specOrText) : specOrText;
  const rng = () => rngFor(seed, 0);
  switch (spec.kind) {
    case 'stencil':
      return generateStencil(spec);
    case 'rmat':
      return generateRmat(spec, rng());
    case 'uniform':
      return generateUniform(spec, rng());
    case 'banded':
      return generateBanded(spec, rng());
    case 'powerlaw':
      return generatePowerlaw(spec, rng());
    case 'fem':
      return generateFem(spec, rng());
    case 'circuit':
      return generateCircuit(spec, rng());
    case 'longrow':
      return generateLongrow(spec, rng());
    case 'perm':
      return generatePerm(spec, rng());
    case 'multimodal':
      return generateMultimodal(spec, rng());
    case 'irregular':
      return generateIrregular(spec, rng());
  }
}
