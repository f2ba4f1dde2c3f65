// `spbench convert IN OUT`: thin wrapper over src/matrix/convert.ts.
import { Command, Option } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('convert')
    .description('Convert sparse matrices between Matrix Market (.mtx), spbench binary (.spb) and CSR/COO text dumps (.csr, .coo)')
    .argument('<in>', 'input: .mtx, .spb, .csr, .coo, or a directory of .mtx/.spb files (a batch)')
    .argument('<out>', 'output file; its extension picks the format unless --to is given')
    .addOption(new Option('--to <format>', 'output format').choices(['mtx', 'spb', 'csr', 'coo']))
    .option('--transpose', 'write the transpose')
    .addOption(new Option('--precision <p>', '.spb value type').choices(['f32', 'f64']))
    .addOption(new Option('--index <bits>', '.spb index width').choices(['32', '64']))
    .option('--pattern', '.mtx: write structure only (pattern field)')
    .option('--symmetric', '.mtx: write the lower triangle with a symmetric header (the matrix must be symmetric)')
    .option('--matrix <k>', 'pick matrix K (0-based) of a batch input', (v) => {
      if (!/^\d+$/.test(v)) throw new UserError(`--matrix expects a non-negative integer, got "${v}"`);
      return Number(v);
    })
    .option('--no-cache', 'parse .mtx input without the matrix cache')
    .addHelpText(
      'after',
      `
Symmetric, skew-symmetric and hermitian inputs are expanded to both triangles. Outputs are written
atomically: a bad input never leaves a partial output file. Text dump formats: docs/matrix-dumps.md.

Examples:
  spbench convert a.mtx a.spb                     # Matrix Market -> binary (f64, int32 indices)
  spbench convert a.spb b.mtx                     # binary -> Matrix Market (real general)
  spbench convert a.mtx a.spb --precision f32 --index 64
  spbench convert a.mtx at.mtx --transpose
  spbench convert sym.mtx sym2.mtx --symmetric    # keep the symmetric header (lower triangle)
  spbench convert a.mtx a.csr                     # CSR text dump; .coo for a COO dump
  spbench convert graphs/ batch.spb               # directory of .mtx files -> one batch file
  spbench convert batch.spb third.mtx --matrix 2`,
    )
    .action(async (input: string, output: string, o: Record<string, unknown>) => {
      const { convertMatrixFile } = await import('../../matrix/convert.js');
      const s = await convertMatrixFile({
        input,
        output,
        to: o.to as 'mtx' | 'spb' | 'csr' | 'coo' | undefined,
        transpose: Boolean(o.transpose),
        precision: o.precision as 'f32' | 'f64' | undefined,
        indexWidth: o.index === undefined ? undefined : o.index === '64' ? 8 : 4,
        pattern: Boolean(o.pattern),
        symmetric: Boolean(o.symmetric),
        matrix: o.matrix as number | undefined,
        cache: o.cache !== false,
      });
      const what = s.matrices === 1 ? `${s.rows} x ${s.cols}, ${s.nnz} nonzeros` : `${s.matrices} matrices, ${s.nnz} nonzeros`;
      process.stdout.write(`wrote ${s.output} (${s.to}; ${what})\n`);
    });
}
