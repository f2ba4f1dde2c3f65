// `spbench spgemm`: sparse × sparse (C = A·A or A·B), every method verified and timed
// (core: src/bench/spgemm-run.ts).
import type { Command } from 'commander';
import { matrixRefExists } from '../../matrix/matrix-ref.js';
import type { SpgemmRequest } from '../../bench/api.js';
import { addCommonOptions, parseCommon, type CommonBenchOptions } from '../bench-options.js';
import { UserError } from '../../util/errors.js';

export interface SpgemmOptions extends CommonBenchOptions {
  gen?: string[];
  b?: string;
  breakdown?: boolean;
  explain?: boolean;
}

function checkFile(path: string, what: string): void {
  if (!matrixRefExists(path)) throw new UserError(`${what}: file '${path}' does not exist`);
}

/** Validates every option (UserError naming the option and value) and builds the request. */
export function spgemmRequest(files: string[], o: SpgemmOptions, parseGenSpec: (text: string) => unknown): SpgemmRequest {
  const gen = o.gen ?? [];
  if (files.length === 0 && gen.length === 0) throw new UserError('spgemm: give at least one matrix file or --gen SPEC (e.g. --gen rmat:scale=16,ef=8)');
  for (const f of files) checkFile(f, 'spgemm');
  if (o.b !== undefined) checkFile(o.b, '--b');
  for (const g of gen) parseGenSpec(g); // a bad spec fails before anything runs
  return {
    inputs: files,
    gen,
    ...(o.b !== undefined ? { b: o.b } : {}),
    breakdown: Boolean(o.breakdown),
    explain: Boolean(o.explain),
    ...parseCommon(o),
  };
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
    .option('--breakdown', 'time the phases too (setup/grouping, count, allocation, compute)')
    .option('--explain', 'print the derived parameters (row groups, table sizes, block sizes)');
  addCommonOptions(cmd, { seedHelp: 'seed for generated matrices', warmup: '2', samples: '10', samplesHelp: 'timed samples per method', libs: 'cuSPARSE' })
    .addHelpText(
      'after',
      `
Examples:
  spbench spgemm matrix.mtx                                C = A·A, every method
  spbench spgemm --gen rmat:scale=18,ef=4 --precision f32,f64
  spbench spgemm --gen stencil:dims=3,n=40,points=27 --breakdown --explain
  spbench spgemm a.mtx --b b.mtx --json ab.json            C = A·B

Note: --gen takes several specs; put files before it or end the list with --.`,
    )
    .action(async (files: string[], o: SpgemmOptions) => {
      const { realDeps } = await import('../../bench/deps.js');
      const deps = await realDeps();
      const req = spgemmRequest(files, o, deps.parseGenSpec);
      const { runWithOutput } = await import('../bench-output.js');
      const { runSpgemm } = await import('../../bench/spgemm-run.js');
      await runWithOutput({ json: o.json, quiet: Boolean(o.quiet) }, (sink) => runSpgemm(req, sink, deps));
    });
}
