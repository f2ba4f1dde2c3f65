// `spbench spmm`: batched SpMM of every method, verified and timed (core: src/bench/spmm-run.ts).
import type { Command } from 'commander';
import type { SpmmRequest } from '../../bench/api.js';
import { BACKENDS } from '../../kinds.js';
import { GRAPH_HELP, GRAPH_KINDS } from '../../matrix/generate/graph.js';
import { oneOf } from '../../bench/options.js';
import { REQUEST_DEFAULTS as D } from '../../bench/request-defaults.js';
import { addCommonOptions, commonFields, defaultHelp, deviceField, metricsField, profileField, type CommonBenchOptions } from '../bench-options.js';

export interface SpmmOptions extends CommonBenchOptions {
  batch?: string;
  dim?: string;
  nnzRow?: string;
  graph?: string;
  nb?: string;
  matrices?: string[];
  mode?: string;
  layout?: string;
  explain?: boolean;
}

/**
 * Checks every option through the spmm request schema (the one suites use; UserError naming the
 * option and value) and builds the request.
 */
export async function spmmRequest(o: SpmmOptions): Promise<SpmmRequest> {
  const { SpmmRequestFields, parseCliRequest } = await import('../../bench/request-schema.js');
  const fields = parseCliRequest(SpmmRequestFields, {
    batch: o.batch, dim: o.dim, nnzRow: o.nnzRow, graph: o.graph, nb: o.nb, matrices: o.matrices?.length ? o.matrices : undefined, mode: o.mode, layout: o.layout, ...commonFields(o),
  });
  return { ...fields, ...(o.explain ? { explain: true } : {}), backend: oneOf(o.backend ?? 'auto', '--backend', BACKENDS), ...deviceField(o), ...profileField(o), ...metricsField(o) };
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
    .option('--batch <n,...>', `matrices per batch; a list sweeps${defaultHelp(D.batch)}`)
    .option('--dim <d|lo:hi,...>', `rows = cols of each A; "32:256" draws a dim per matrix (mixed batch); a list sweeps${defaultHelp(D.dim)}`)
    .option('--nnz-row <k|lo:hi,...>', `nonzeros per row (exact, distinct columns); range draws per matrix; a list sweeps${defaultHelp(D.nnzRow)}`)
    .option('--graph <kind>', `each A a small graph of this kind (${GRAPH_KINDS.join(', ')}) with --dim vertices, instead of --nnz-row random columns a row (Graphs below)`)
    .option('--nb <n,...>', `columns of B (nB); a list is swept in one native run${defaultHelp(D.nb)}`)
    .option('--matrices <path...>', '.mtx/.spb files or directories of them, used as the batch instead of generated matrices')
    .option('--mode <kernel|e2e|graph,...>', `timed region: kernel (device events, data resident), e2e (with host→device copies), graph (calls captured back to back in one CUDA graph, launch overhead removed)${defaultHelp(D.mode)}`)
    .option('--layout <row|col>', `storage order of B and C${defaultHelp(D.layout)}`)
    .option('--explain', "print the planner's rule and which of our kernels `auto` picks for each batch (CUDA backend)");
  addCommonOptions(cmd, { seedHelp: 'seed for generated matrices and B', samplesHelp: 'timed samples per method (at least 20 on the GPU backend)', libs: 'cuSPARSE, cuBLAS',
    precisionHelp: 'value precision(s), a comma list of f32, f64, f16, bf16 (f16/bf16: 16-bit A, B and C, f32 accumulation, tolerance 1e-3 / 8e-3)' })
    .addHelpText(
      'after',
      `
Examples:
  spbench spmm --batch 100 --dim 64                       the paper's case, every method
  spbench spmm --dim 32,64,128 --nnz-row 1,3,5 --nb 16,32,64,128,256,512,1024
  spbench spmm --dim 32:256 --nnz-row 1:5 --batch 50,100  mixed batches (dims and nnz drawn per matrix)
  spbench spmm --graph molecule --batch 2000 --dim 9:40 --nb 16,64   2000 molecule-like graphs (GNN batch)
  spbench spmm --matrices graphs/ --nb 64 --precision f32,f64 --mode kernel,graph
  spbench spmm --batch 10000 --mode graph --json out.json
  spbench spmm --batch 1000 --nnz-row 3:16 --nb 16,256 --precision f16,bf16   16-bit values, f32 accumulation
  spbench spmm --batch 1000 --dim 32 --nnz-row 16 --methods auto --explain   the planner's choice and its rule

Graphs (--graph KIND):
  ${GRAPH_HELP.replace(/\n/g, '\n  ')}

Timing: --samples timed runs after --warmup untimed ones; the table shows the median and the
interquartile range, GFLOPS = 2·nnz(A)·nB / median time, GB/s = bytes of A, B, C / median time.`,
    )
    .action(async (o: SpmmOptions) => {
      const req = await spmmRequest(o);
      const { realDeps } = await import('../../bench/deps.js');
      const deps = await realDeps();
      const { runWithOutput } = await import('../bench-output.js');
      const { runSpmm } = await import('../../bench/spmm-run.js');
      await runWithOutput({ json: o.json, quiet: Boolean(o.quiet) }, (sink) => runSpmm(req, sink, deps));
    });
}
