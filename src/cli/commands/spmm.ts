// `spbench spmm`: batched SpMM of every method, verified and timed (core: src/bench/spmm-run.ts).
import type { Command } from 'commander';
import { matrixRefExists } from '../../matrix/matrix-ref.js';
import type { SpmmRequest } from '../../bench/api.js';
import type { Range } from '../../bench/deps.js';
import { listOf, oneOf, positiveIntList, rangeList } from '../../bench/options.js';
import { addCommonOptions, parseCommon, type CommonBenchOptions } from '../bench-options.js';
import { UserError } from '../../util/errors.js';

export interface SpmmOptions extends CommonBenchOptions {
  batch: string;
  dim: string;
  nnzRow: string;
  nb: string;
  matrices?: string[];
  mode: string;
  layout: string;
}

/** Validates every option (UserError naming the option and value) and builds the request. */
export function spmmRequest(o: SpmmOptions, explicit: (name: string) => boolean, parseRange: (text: string, what: string) => Range): SpmmRequest {
  if (o.matrices?.length) {
    const clash = ['batch', 'dim', 'nnzRow'].filter(explicit).map((n) => (n === 'nnzRow' ? '--nnz-row' : `--${n}`));
    if (clash.length) throw new UserError(`--matrices: cannot be combined with ${clash.join(', ')} (the files are the batch)`);
    const missing = o.matrices.find((p) => !matrixRefExists(p));
    if (missing !== undefined) throw new UserError(`--matrices: '${missing}' does not exist`);
  }
  return {
    batch: positiveIntList(o.batch, '--batch'),
    dim: rangeList(o.dim, '--dim', parseRange),
    nnzRow: rangeList(o.nnzRow, '--nnz-row', parseRange),
    nb: positiveIntList(o.nb, '--nb'),
    ...(o.matrices?.length ? { matrices: o.matrices } : {}),
    mode: listOf(o.mode, '--mode', ['kernel', 'e2e', 'graph'] as const),
    layout: oneOf(o.layout, '--layout', ['row', 'col'] as const),
    ...parseCommon(o),
  };
}

export function register(program: Command): void {
  const cmd = program
    .command('spmm')
    .summary('benchmark batched SpMM (C = A·B, many small sparse A) against cuSPARSE/cuBLAS')
    .description(
      'Benchmark batched SpMM: C = A·B for a batch of small sparse matrices A and dense B (k × nB).\n' +
        'Every method is verified against the CPU float64 reference, then timed (warm-up, samples, median, IQR).\n' +
        'Where no GPU exists the CPU reference backend runs instead, labelled as such (not GPU figures).',
    )
    .option('--batch <n,...>', 'matrices per batch; a list sweeps', '100')
    .option('--dim <d|lo:hi,...>', 'rows = cols of each A; "32:256" draws a dim per matrix (mixed batch); a list sweeps', '64')
    .option('--nnz-row <k|lo:hi,...>', 'nonzeros per row (exact, distinct columns); range draws per matrix; a list sweeps', '3')
    .option('--nb <n,...>', 'columns of B (nB); a list is swept in one native run', '64')
    .option('--matrices <path...>', '.mtx/.spb files or directories of them, used as the batch instead of generated matrices')
    .option('--mode <kernel|e2e|graph,...>', 'timed region: kernel (device events, data resident), e2e (with host→device copies), graph (calls captured back to back in one CUDA graph, launch overhead removed)', 'kernel')
    .option('--layout <row|col>', 'storage order of B and C', 'row');
  addCommonOptions(cmd, { seedHelp: 'seed for generated matrices and B', warmup: '5', samples: '20', samplesHelp: 'timed samples per method (at least 20 on the GPU backend)', libs: 'cuSPARSE, cuBLAS' })
    .addHelpText(
      'after',
      `
Examples:
  spbench spmm --batch 100 --dim 64                       the paper's case, every method
  spbench spmm --dim 32,64,128 --nnz-row 1,3,5 --nb 16,32,64,128,256,512,1024
  spbench spmm --dim 32:256 --nnz-row 1:5 --batch 50,100  mixed batches (dims and nnz drawn per matrix)
  spbench spmm --matrices graphs/ --nb 64 --precision f32,f64 --mode kernel,graph
  spbench spmm --batch 10000 --mode graph --json out.json

Timing: --samples timed runs after --warmup untimed ones; the table shows the median and the
interquartile range, GFLOPS = 2·nnz(A)·nB / median time, GB/s = bytes of A, B, C / median time.`,
    )
    .action(async (o: SpmmOptions, cmd: Command) => {
      const { realDeps } = await import('../../bench/deps.js');
      const deps = await realDeps();
      const req = spmmRequest(o, (n) => cmd.getOptionValueSource(n) === 'cli', deps.parseRange);
      const { runWithOutput } = await import('../bench-output.js');
      const { runSpmm } = await import('../../bench/spmm-run.js');
      await runWithOutput({ json: o.json, quiet: Boolean(o.quiet) }, (sink) => runSpmm(req, sink, deps));
    });
}
