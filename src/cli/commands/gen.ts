// `spbench gen`: writes seeded random matrices (a batch, or one matrix from a spec) as .mtx or .spb.
import type { Command } from 'commander';
import { SPEC_HELP } from '../../matrix/generate/spec.js';
import { GRAPH_HELP, GRAPH_KINDS } from '../../matrix/generate/graph.js';
import { UserError } from '../../util/errors.js';

export interface GenOptions {
  batch: string;
  dim: string;
  nnzRow: string;
  graph?: string;
  seed: string;
  output?: string;
  format?: string;
  precision: string;
}

export function register(program: Command): void {
  program
    .command('gen')
    .summary('write seeded random matrices (batches; stencils, R-MAT, uniform, banded, power law, FEM blocks, circuit, long rows, permutations, multimodal, irregular band) as .mtx or .spb')
    .description(
      'Write reproducible random matrices: the same seed gives the same bytes on any machine.\n\n' +
        'Without SPEC: a batch of square matrices, every row with exactly --nnz-row distinct random columns ' +
        '(clamped to the matrix dim), values in (-1, 1); with --graph KIND, a batch of small graphs instead (below). ' +
        'With SPEC: one large matrix (for SpGEMM).',
    )
    .argument('[spec]', 'one matrix instead of a batch (see below)')
    .option('--batch <n>', 'matrices in the batch', '100')
    .option('--dim <d|lo:hi>', 'rows = cols of each matrix; "32:256" draws one per matrix (mixed batch)', '64')
    .option('--nnz-row <k|lo:hi>', 'distinct nonzeros in every row, clamped to dim; a range draws one per matrix', '3')
    .option('--graph <kind>', `each matrix a small graph of this kind (${GRAPH_KINDS.join(', ')}) with --dim vertices, instead of --nnz-row random columns a row`)
    .option('--seed <n>', 'seed (integer); matrix i of a batch depends only on the seed and i', '1')
    .option('-o, --output <path>', 'output: file.spb (whole batch), file.mtx (one matrix), or dir/ (one .mtx per matrix)')
    .option('--format <mtx|spb>', 'output format when the name does not say it')
    .option('--precision <f32|f64>', 'value type stored in .spb (generated values are exact in both)', 'f64')
    .addHelpText(
      'after',
      `
Specs (one matrix; --batch/--dim/--nnz-row do not apply):
${SPEC_HELP}

Graphs (--graph KIND, a batch; --nnz-row does not apply):
  ${GRAPH_HELP.replace(/\n/g, '\n  ')}

Examples:
  spbench gen --batch 100 --dim 64 --nnz-row 3 --seed 1 -o batch.spb
  spbench gen --batch 50 --dim 32:256 --nnz-row 1:5 -o graphs/          (m00.mtx … m49.mtx)
  spbench gen --graph molecule --batch 2000 --dim 9:40 -o molecules/      (GNN-style batch of small graphs)
  spbench gen rmat:scale=16,ef=8 -o r.mtx
  spbench gen stencil:dims=3,n=40,points=27 --precision f32 -o s27.spb`,
    )
    .action(async (spec: string | undefined, o: GenOptions, cmd: Command) => {
      await runGen(spec, o, (name) => cmd.getOptionValueSource(name) === 'cli');
    });
}

/** Parses options, generates, writes atomically, and prints one summary line. */
export async function runGen(specText: string | undefined, o: GenOptions, explicit: (name: string) => boolean): Promise<void> {
  const gen = await import('../../matrix/generate/index.js');
  if (!o.output) throw new UserError('gen: -o/--output is required (file.spb, file.mtx, or dir/)');
  const format = o.format === undefined ? undefined : oneOf(o.format, '--format', ['mtx', 'spb'] as const);
  const precision = oneOf(o.precision, '--precision', ['f32', 'f64'] as const);
  const seed = gen.parseSeed(o.seed);
  let spec: ReturnType<typeof gen.parseGenSpec> | undefined;
  let batch = 1;
  let dim = { min: 0, max: 0 };
  let nnzRow = dim;
  let graph: ReturnType<typeof gen.parseGraphKind> | undefined;
  if (specText !== undefined) {
    const clash = ['batch', 'dim', 'nnzRow', 'graph'].filter(explicit).map((n) => (n === 'nnzRow' ? '--nnz-row' : `--${n}`));
    if (clash.length) throw new UserError(`gen ${specText}: ${clash.join(', ')} ${clash.length > 1 ? 'apply' : 'applies'} to batches only, not to a spec`);
    spec = gen.parseGenSpec(specText);
  } else {
    const b = gen.parseRange(o.batch, '--batch');
    if (b.min !== b.max) throw new UserError(`--batch must be one positive integer, got "${o.batch}"`);
    batch = b.min;
    dim = gen.parseRange(o.dim, '--dim');
    if (o.graph !== undefined) {
      if (explicit('nnzRow')) throw new UserError(`gen: --nnz-row cannot be combined with --graph ${o.graph} (a graph's rows are its vertices' bonds and self-loop)`);
      graph = gen.parseGraphKind(o.graph);
    } else nnzRow = gen.parseRange(o.nnzRow, '--nnz-row');
  }
  const out = await import('../../matrix/generate/write.js');
  const plan = out.planOutput(o.output, format, batch, out.isDirectory(o.output));
  out.checkOutputParent(plan);

  const started = performance.now();
  const progress = progressPrinter();
  if (spec && gen.nnzBound(spec) > 1e7) process.stderr.write(`spbench gen: generating ${gen.formatGenSpec(spec)} (up to ${gen.nnzBound(spec)} nonzeros)\n`);
  const mats = spec
    ? [gen.generateMatrix(spec, seed)]
    : gen.generateBatch({ batch, dim, seed, onProgress: (done, total) => progress(`${done}/${total} matrices generated`), ...(graph ? { graph } : { nnzRow }) });
  const genSeconds = (performance.now() - started) / 1000;
  if (genSeconds > 1) process.stderr.write(`spbench gen: generated in ${genSeconds.toFixed(1)} s, writing ${o.output}\n`);

  const what = spec ? gen.formatGenSpec(spec) : graph ? `--graph ${graph} --dim ${rangeText(dim)}` : `--dim ${rangeText(dim)} --nnz-row ${rangeText(nnzRow)}`;
  const comment = ` generated by spbench gen ${what} --seed ${seed}`;
  await out.writeGenerated(plan, mats, { valueType: precision, comments: [comment] });

  const nnz = mats.reduce((s, m) => s + m.rowPtr[m.rows], 0);
  const shape = spec
    ? `${what}: ${mats[0].rows} × ${mats[0].cols}, nnz ${nnz}`
    : `${batch} ${graph ? `${graph} graphs` : 'matrices'}, dim ${rangeText(dim)}, ${graph ? '' : `nnz/row ${rangeText(nnzRow)}, `}nnz ${nnz}`;
  const names = out.batchFileNames(batch);
  const where = plan.kind === 'mtx-dir' ? `${plan.dir}/ (${names[0]}${batch > 1 ? ` … ${names[batch - 1]}` : ''})` : plan.path;
  process.stdout.write(`wrote ${where}: ${shape}, seed ${seed}${plan.kind === 'spb' ? `, ${precision}` : ''}\n`);
}

function rangeText(r: { min: number; max: number }): string {
  return r.min === r.max ? String(r.min) : `${r.min}:${r.max}`;
}

function oneOf<T extends string>(value: string, what: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UserError(`${what} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** Plain progress lines on stderr, at most one a second, so big generations show they are alive. */
function progressPrinter(): (line: string) => void {
  let last = performance.now();
  return (line) => {
    const now = performance.now();
    if (now - last < 1000) return;
    last = now;
    process.stderr.write(`spbench gen: ${line}\n`);
  };
}
