// Seeded, reproducible matrix generators: the public surface used by `spbench gen` and the benches.
import type { CsrMatrix } from '../types.js';
import { generateRmat } from './rmat.js';
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
 * stream 0 of `seed`.
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
  }
}
