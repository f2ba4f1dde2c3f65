// `spbench spgemm`: sparse × sparse (C = A·A or A·B), every method verified and timed
// (core: src/bench/spgemm-run.ts).
import { SPEC_HELP } from '../../matrix/generate/spec.js';
import type { Command } from 'commander';
import type { SpgemmRequest } from '../../bench/api.js';
import { BACKENDS } from '../../kinds.js';
import { oneOf } from '../../bench/options.js';
import { addCommonOptions, commonFields, deviceField, metricsField, profileField, type CommonBenchOptions } from '../bench-options.js';

export interface SpgemmOptions extends CommonBenchOptions {
  gen?: string[];
  genB?: string;
  b?: string;
  breakdown?: boolean;
  explain?: boolean;
  verify?: string;
}

/**
 * Checks every option through the spgemm request schema (the one suites use; UserError naming the
 * option and value) and builds the request.
 */
export async function spgemmRequest(files: string[], o: SpgemmOptions): Promise<SpgemmRequest> {
  const { SpgemmRequestFields, parseCliRequest } = await import('../../bench/request-schema.js');
  const fields = parseCliRequest(SpgemmRequestFields, {
    inputs: files.length ? files : undefined, gen: o.gen?.length ? o.gen : undefined, b: o.b, gen_b: o.genB,
    breakdown: o.breakdown, explain: o.explain, verify: o.verify, ...commonFields(o),
  });
  return { ...fields, backend: oneOf(o.backend ?? 'auto', '--backend', BACKENDS), ...deviceField(o), ...profileField(o), ...metricsField(o) };
}

export function register(program: Command): void {
  const cmd = program
    .command('spgemm')
    .summary('benchmark SpGEMM (C = A·A or A·B, all CSR) against cuSPARSE')
    .description(
      'Benchmark sparse × sparse multiplication: C = A·A (or A·B with --b), A, B, C in CSR.\n' +
        'Every method is verified (same pattern, sorted columns, values within tolerance), then timed: the whole\n' +
        'SpGEMM from CSR inputs on the device to CSR output, allocation of C included. GFLOPS = 2·products / time.\n' +
        'Where no GPU exists the CPU reference backend (Gustavson) runs instead, labelled as such.',
    )
    .argument('[files...]', 'matrix files (.mtx or .spb); each is one case')
    .option('--gen <spec...>', 'generated matrices, e.g. stencil:dims=3,n=40,points=27  rmat:scale=16,ef=8  uniform:rows=200000,nnz_row=8  banded:n=1000,bw=5')
    .option('--b <file>', 'second operand: compute A·B instead of A·A')
    .option('--gen-b <spec>', 'generated second operand (with one --gen as A): A·B of two generated matrices, e.g. --gen uniform:rows=50,cols=30,nnz_row=3 --gen-b uniform:rows=30,cols=70,nnz_row=4')
    .option('--breakdown', 'time the phases too (setup/grouping, count, allocation, compute)')
    .option('--explain', 'print the derived parameters (row groups, table sizes, block sizes)')
    .option('--verify <mode>', 'check against the CPU float64 reference: auto (every row up to 2^28 products; above, 4096 rows, as rows:4096, said in the output), full (every row), rows:N (N rows: the longest eighth by products and the rest drawn from --seed) or none; references are cached by the operands\' content, so a second run reuses them', 'auto');
  addCommonOptions(cmd, { seedHelp: 'seed for generated matrices (A and B draw from the same seed)', samplesHelp: 'timed samples per method', libs: 'cuSPARSE',
    precisionHelp: 'value precision(s): f32, f64 or f32,f64' })
    .addHelpText(
      'after',
      `
Examples:
  spbench spgemm matrix.mtx                                C = A·A, every method
  spbench spgemm --gen rmat:scale=18,ef=4 --precision f32,f64
  spbench spgemm --gen stencil:dims=3,n=40,points=27 --breakdown --explain
  spbench spgemm a.mtx --b b.mtx --json ab.json            C = A·B
  spbench spgemm --gen uniform:rows=50,cols=30,nnz_row=3 --gen-b uniform:rows=30,cols=70,nnz_row=4
                                                           C = A·B, both generated (rectangular)

Generator specs (--gen, --gen-b):
${SPEC_HELP}

Note: --gen takes several specs; put files before it or end the list with --.`,
    )
    .action(async (files: string[], o: SpgemmOptions) => {
      const req = await spgemmRequest(files, o);
      const { realDeps } = await import('../../bench/deps.js');
      const deps = await realDeps();
      const { runWithOutput } = await import('../bench-output.js');
      const { runSpgemm } = await import('../../bench/spgemm-run.js');
      await runWithOutput({ json: o.json, quiet: Boolean(o.quiet) }, (sink) => runSpgemm(req, sink, deps));
    });
}
