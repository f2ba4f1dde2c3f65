// `spbench info FILE`: shape, nnz/row distribution, symmetry, band and the work of A·A.
import type { Command } from 'commander';
import type { ArchiveMember } from '../../matrix/archive.js';
import type { BatchStats, Distribution, MatrixStats } from '../../matrix/stats.js';

interface InfoOptions {
  json?: boolean;
  nnzC?: boolean;
}

export function register(program: Command): void {
  program
    .command('info')
    .summary('print a matrix\'s figures: dims, nnz, nnz/row, symmetry, products of A·A')
    .description(
      'Print figures of a matrix (.mtx, .spb, .csr/.coo dump) or of a batch (.spb with several matrices, or a directory): ' +
        'rows, cols, nnz, nnz/row min/max/mean/stddev, empty rows, diagonal entries, bandwidth, symmetry of ' +
        'pattern and values, and the intermediate products of A·A (the work SpGEMM GFLOPS counts).',
    )
    .argument('<file>', '.mtx, .mtx.gz, .tar.gz (ARCHIVE:MEMBER for another member), .spb, .csr or .coo file, or a directory of them')
    .option('--json', 'print the figures as one JSON object')
    .option('--nnz-c', 'also count nnz(A·A) exactly (one symbolic SpGEMM pass on the CPU; slow on huge matrices)')
    .addHelpText(
      'after',
      `
Examples:
  spbench info r.mtx
  spbench info r.mtx --nnz-c --json
  spbench info batch.spb          (a batch: count, dims and nnz ranges, nnz/row over all rows)
  spbench info cant.tar.gz        (a SuiteSparse archive: cant/cant.mtx, and its members listed)
  spbench info cant.tar.gz:cant_b (another member of the archive)`,
    )
    .action(async (file: string, o: InfoOptions) => {
      const { matrixStats, batchStats } = await import('../../matrix/stats.js');
      const { loadBatch } = await import('../../matrix/load.js');
      // one file of one matrix, an .spb batch, or a directory of files: one loader for all
      const batch = await loadBatch(file);
      const members = await archiveMembers(file);
      if (batch.matrices.length === 1) {
        const stats = matrixStats(batch.matrices[0], { nnzAA: Boolean(o.nnzC) });
        const text = renderMatrixStats(file, stats) + (members ? renderMembers(members) : '');
        process.stdout.write(o.json ? `${JSON.stringify({ file, ...stats, ...(members ? { members } : {}) })}\n` : text);
      } else {
        const stats = batchStats(batch.matrices);
        process.stdout.write(o.json ? `${JSON.stringify({ file, batch: stats, names: batch.names })}\n` : renderBatchStats(file, stats));
      }
    });
}

/** The members of a .tar(.gz) archive (the matrix read is the main one or the one named). */
async function archiveMembers(file: string): Promise<ArchiveMember[] | undefined> {
  const { packedKind, parseMatrixRef } = await import('../../matrix/matrix-ref.js');
  const ref = parseMatrixRef(file);
  if (packedKind(ref.file) !== 'tar' && packedKind(ref.file) !== 'tar-gz') return undefined;
  return (await (await import('../../matrix/archive.js')).listArchive(ref.file)).members;
}

export function renderMembers(members: ArchiveMember[]): string {
  return lines(
    members.map((m, i) => [
      i === 0 ? 'archive members' : '',
      `${m.path} (${num(m.bytes)} bytes${m.header ? `, ${num(m.header.rows)} × ${num(m.header.cols)}, ${num(m.header.entries)} entries, ${m.header.field} ${m.header.symmetry}` : ''}${m.error ? `, unreadable: ${m.error}` : ''})`,
    ]),
  );
}

const num = (x: number) => x.toLocaleString('en-US');
const fixed = (x: number) => x.toFixed(2);
const dist = (d: Distribution) => `min ${num(d.min)}, max ${num(d.max)}, mean ${fixed(d.mean)}, stddev ${fixed(d.stddev)}`;
const yesNo = (b: boolean | null) => (b === null ? 'n/a (not square)' : b ? 'yes' : 'no');

/** Aligned "key  value" lines. */
function lines(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}\n`).join('');
}

export function renderMatrixStats(file: string, s: MatrixStats): string {
  const notSquare = 'n/a (not square)';
  return lines([
    ['file', file],
    ['rows × cols', `${num(s.rows)} × ${num(s.cols)}`],
    ['nnz', `${num(s.nnz)} (density ${s.rows && s.cols ? (s.nnz / (s.rows * s.cols)).toExponential(2) : '0'})`],
    ['nnz/row', dist(s.nnzPerRow)],
    ['empty rows', num(s.emptyRows)],
    ['diagonal entries', num(s.diagonal)],
    ['bandwidth', `${num(s.bandwidth)} (max |i-j|)`],
    ['symmetric pattern', yesNo(s.symmetricPattern)],
    ['symmetric values', yesNo(s.symmetricValues)],
    ['products of A·A', s.productsAA === null ? notSquare : `${num(s.productsAA)} (row max ${num(s.productsAARowMax ?? 0)})`],
    ['nnz(A·A)', s.nnzAA !== null ? num(s.nnzAA) : s.productsAA === null ? notSquare : 'not computed (use --nnz-c)'],
  ]);
}

export function renderBatchStats(file: string, s: BatchStats): string {
  const range = (d: Distribution) => (d.min === d.max ? num(d.min) : `${num(d.min)} to ${num(d.max)} (mean ${fixed(d.mean)})`);
  return lines([
    ['file', file],
    ['matrices', num(s.count)],
    ['rows', range(s.rows)],
    ['cols', range(s.cols)],
    ['nnz per matrix', range(s.nnz)],
    ['nnz in total', num(s.totalNnz)],
    ['nnz/row (all rows)', dist(s.nnzPerRow)],
    ['empty rows', num(s.emptyRows)],
  ]);
}
