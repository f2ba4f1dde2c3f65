#!/usr/bin/env node
// GPU test (`npm run test:gpu`, on the GPU machine): runs the built CLI on odd cases with every
// method and fails (exit 1) on any result whose status is "failed" or "error", or on any run that
// does not finish. not_applicable results are fine and listed. Last line: "N passed, M failed".
//
//   node scripts/gpu-test.mjs [--log FILE] [--backend cuda|cpu] [--only spmm|spgemm] [--match TEXT] [--part K/N] [--keep]
//
// --part K/N runs the K-th of N interleaved parts of the selected cases (the device's calls have a time limit).
// --backend cpu runs the same cases on the CPU reference backend (a dry run of this script where
// no GPU exists). Inputs that generators cannot express (empty rows, nnz-0 matrices, 1×1,
// rectangular operands, a row whose products overflow every shared-memory table) are written here
// as small .mtx files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The seeded generator of compare's statistics: the written files are the same on every run.
import { rng } from '../dist/src/util/prng.js'; // dependency-free: the GPU machine has the bundle, no node_modules

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'spbench.js');

function parseArgs(argv) {
  const o = { log: null, backend: 'cuda', only: null, match: null, part: null, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--log') o.log = value();
    else if (a === '--backend') o.backend = value();
    else if (a === '--only') o.only = value();
    else if (a === '--match') o.match = value();
    else if (a === '--part') o.part = value();
    else if (a === '--keep') o.keep = true;
    else usage(`unknown argument '${a}'`);
  }
  if (!['cuda', 'cpu'].includes(o.backend)) usage(`--backend: '${o.backend}' is not one of cuda, cpu`);
  if (o.only !== null && !['spmm', 'spgemm'].includes(o.only)) usage(`--only: '${o.only}' is not one of spmm, spgemm`);
  if (o.part !== null) {
    const m = /^(\d+)\/(\d+)$/.exec(o.part);
    if (!m || +m[1] < 1 || +m[1] > +m[2]) usage(`--part: '${o.part}' is not K/N with 1 <= K <= N`);
    o.part = { k: +m[1], n: +m[2] };
  }
  return o;
}

function usage(msg) {
  process.stderr.write(`gpu-test: ${msg}\nusage: node scripts/gpu-test.mjs [--log FILE] [--backend cuda|cpu] [--only spmm|spgemm] [--match TEXT] [--part K/N] [--keep]\n`);
  process.exit(2);
}

// ---- inputs ----

function writeMtx(path, rows, cols, entries) {
  const lines = [`%%MatrixMarket matrix coordinate real general`, `${rows} ${cols} ${entries.length}`];
  for (const [i, j, v] of entries) lines.push(`${i + 1} ${j + 1} ${v}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** `perRow` distinct random columns in each listed row, values in [-1, 1]. */
function randomRows(rows, cols, perRow, next) {
  const out = [];
  for (const r of rows) {
    const seen = new Set();
    while (seen.size < Math.min(perRow, cols)) seen.add(Math.floor(next() * cols));
    for (const c of [...seen].sort((x, y) => x - y)) out.push([r, c, (next() * 2 - 1).toFixed(6)]);
  }
  return out;
}

function writeInputs(dir) {
  const next = rng(12345);
  const batch = join(dir, 'spmm-odd');
  mkdirSync(batch);
  // a batch with empty rows, an all-zero matrix, 1×1 matrices, a non-square matrix and a dense row
  writeMtx(join(batch, 'a-empty-rows.mtx'), 7, 7, randomRows([0, 3, 6], 7, 3, next));
  writeMtx(join(batch, 'b-nnz0.mtx'), 5, 5, []);
  writeMtx(join(batch, 'c-one.mtx'), 1, 1, [[0, 0, 0.5]]);
  writeMtx(join(batch, 'd-one-zero.mtx'), 1, 1, []);
  writeMtx(join(batch, 'e-dense-row.mtx'), 40, 40, randomRows([0, 39], 40, 40, next));
  writeMtx(join(batch, 'f-mixed.mtx'), 129, 129, randomRows([...Array(129).keys()].filter((r) => r % 5 !== 2), 129, 5, next));
  // every m_i even, rows of at most 3 (batched-col's two rows a lane for 16-bit values): empty rows, an all-zero matrix,
  // 2×2, k_i odd
  const even = join(dir, 'spmm-even');
  mkdirSync(even);
  writeMtx(join(even, 'a-empty-rows.mtx'), 8, 8, randomRows([0, 3, 6], 8, 3, next));
  writeMtx(join(even, 'b-nnz0.mtx'), 6, 6, []);
  writeMtx(join(even, 'c-two.mtx'), 2, 2, [[0, 1, 0.5], [1, 0, -0.25]]);
  writeMtx(join(even, 'd-rect.mtx'), 10, 13, randomRows([...Array(10).keys()], 13, 3, next));
  writeMtx(join(even, 'e-two-a-row.mtx'), 40, 40, randomRows([...Array(40).keys()], 40, 2, next));
  writeMtx(join(even, 'f-wide.mtx'), 128, 128, randomRows([...Array(128).keys()].filter((r) => r % 5 !== 2), 128, 3, next));
  // every m_i and k_i a multiple of 8 (batched-tile's streamed column-major path): empty rows, an all-zero matrix,
  // rectangular ones both ways, dense rows, and an A_i of the path's largest k (128)
  const oct = join(dir, 'spmm-oct');
  mkdirSync(oct);
  writeMtx(join(oct, 'a-empty-rows.mtx'), 8, 8, randomRows([0, 3, 6], 8, 3, next));
  writeMtx(join(oct, 'b-nnz0.mtx'), 16, 16, []);
  writeMtx(join(oct, 'c-wide.mtx'), 8, 120, randomRows([...Array(8).keys()], 120, 30, next));
  writeMtx(join(oct, 'd-tall.mtx'), 120, 8, randomRows([...Array(120).keys()].filter((r) => r % 3 !== 1), 8, 2, next));
  writeMtx(join(oct, 'e-dense-rows.mtx'), 64, 64, randomRows([0, 31, 63], 64, 64, next));
  writeMtx(join(oct, 'f-full.mtx'), 128, 128, randomRows([...Array(128).keys()], 128, 40, next));
  writeMtx(join(oct, 'g-rect.mtx'), 24, 40, randomRows([...Array(24).keys()], 40, 7, next));
  // every k_i at most 32 (batched-slab's streamed row-major path): empty rows, an all-zero matrix, 1×1, tall and wide
  // ones, dense rows
  const k32 = join(dir, 'spmm-k32');
  mkdirSync(k32);
  writeMtx(join(k32, 'a-empty-rows.mtx'), 7, 7, randomRows([0, 3, 6], 7, 3, next));
  writeMtx(join(k32, 'b-nnz0.mtx'), 5, 5, []);
  writeMtx(join(k32, 'c-one.mtx'), 1, 1, [[0, 0, 0.5]]);
  writeMtx(join(k32, 'd-tall.mtx'), 128, 9, randomRows([...Array(128).keys()].filter((r) => r % 4 !== 1), 9, 3, next));
  writeMtx(join(k32, 'e-dense-rows.mtx'), 40, 32, randomRows([0, 20, 39], 32, 32, next));
  writeMtx(join(k32, 'f-wide.mtx'), 3, 32, randomRows([0, 1, 2], 32, 20, next));
  const sp = join(dir, 'spgemm');
  mkdirSync(sp);
  const n = 300;
  const files = {
    emptyRows: writeMtx(join(sp, 'empty-rows.mtx'), n, n, randomRows([...Array(n).keys()].filter((r) => r % 3 === 0), n, 6, next)),
    empty: writeMtx(join(sp, 'empty.mtx'), 50, 50, []),
    one: writeMtx(join(sp, 'one.mtx'), 1, 1, [[0, 0, 2]]),
    rectA: writeMtx(join(sp, 'rect-a.mtx'), 200, 350, randomRows([...Array(200).keys()], 350, 4, next)),
    rectB: writeMtx(join(sp, 'rect-b.mtx'), 350, 90, randomRows([...Array(350).keys()].filter((r) => r % 7 !== 0), 90, 3, next)),
    // row 0 of A is full: 3000 × 30 = 90000 products onto ~60000 distinct columns of 100000, far more
    // than any shared-memory hash table holds (227 KB / 8 B ≈ 29000 entries), so the global path runs
    wideA: writeMtx(join(sp, 'overflow-a.mtx'), 3, 3000, [...randomRows([0], 3000, 3000, next), ...randomRows([2], 3000, 5, next)]),
    wideB: writeMtx(join(sp, 'overflow-b.mtx'), 3000, 100000, randomRows([...Array(3000).keys()], 100000, 30, next)),
  };
  return { batch, even, oct, k32, ...files };
}

// ---- cases ----

function cases(inp, backend) {
  // the GPU backend needs at least 20 samples; few warm-ups keep the whole run short. The CPU backend (CI's run of these
  // cases) checks results, not times: 3 samples and no warm-up there.
  const spmmT = backend === 'cpu' ? ['--warmup', '0', '--samples', '3'] : ['--warmup', '2', '--samples', '20'];
  const spgemmT = ['--warmup', '1', '--samples', '3'];
  const both = ['--precision', 'f32,f64'];
  const half = ['--precision', 'f16,bf16'];
  const allModes = ['--mode', 'kernel,e2e,graph'];
  return [
    { op: 'spmm', name: 'dim 1, nnz/row 1, nB 1/17/33/1000', args: ['--batch', '7', '--dim', '1', '--nnz-row', '1', '--nb', '1,17,33,1000', ...both, ...spmmT] },
    { op: 'spmm', name: 'files: empty rows, nnz-0 and 1×1 matrices, dense rows, all modes', args: ['--matrices', inp.batch, '--nb', '1,17,33,1000', ...both, ...allModes, ...spmmT] },
    { op: 'spmm', name: 'batch 1', args: ['--batch', '1', '--dim', '64', '--nnz-row', '3', '--nb', '1,17,33,1000', ...both, ...spmmT] },
    { op: 'spmm', name: 'mixed dims 32:256, nnz/row 1:5', args: ['--batch', '100', '--dim', '32:256', '--nnz-row', '1:5', '--nb', '16,17,33,64,1000', ...both, ...allModes, ...spmmT] },
    { op: 'spmm', name: 'paper case, all modes', args: ['--batch', '100', '--dim', '64', '--nnz-row', '3', '--nb', '16,64,256', ...both, ...allModes, ...spmmT] },
    { op: 'spmm', name: 'column-major B and C', args: ['--batch', '50', '--dim', '32:128', '--nnz-row', '1:5', '--nb', '17,64', '--layout', 'col', ...both, ...spmmT] },
    { op: 'spmm', name: 'column-major files: empty rows, nnz-0 and 1×1 matrices, dense rows, all modes', args: ['--matrices', inp.batch, '--nb', '1,17,33,1000', '--layout', 'col', ...both, ...allModes, ...spmmT] },
    { op: 'spmm', name: 'column-major dim 1, batch 1, nB 1/3/1000', args: ['--batch', '1', '--dim', '1', '--nnz-row', '1', '--nb', '1,3,1000', '--layout', 'col', ...both, ...spmmT] },
    { op: 'spmm', name: 'dense-ish rows (dim 32, nnz/row 16)', args: ['--batch', '300', '--dim', '32', '--nnz-row', '16', '--nb', '16,24,256', ...both, ...spmmT] },
    { op: 'spmm', name: 'dense-ish rows (dim 32, nnz/row 16), column-major', args: ['--batch', '300', '--dim', '32', '--nnz-row', '16', '--nb', '16,24,256', '--layout', 'col', ...both, ...spmmT] },
    { op: 'spmm', name: 'mixed dims 16:200, nnz/row 1:16 (rows longer than the ELL slots)', args: ['--batch', '77', '--dim', '16:200', '--nnz-row', '1:16', '--nb', '5,64,130', ...both, '--mode', 'kernel,graph', ...spmmT] },
    { op: 'spmm', name: 'mixed dims 16:200, nnz/row 1:16, column-major', args: ['--batch', '77', '--dim', '16:200', '--nnz-row', '1:16', '--nb', '5,64,130', '--layout', 'col', ...both, '--mode', 'kernel,graph', ...spmmT] },
    { op: 'spmm', name: 'dim 1000 (staged column blocks of B)', args: ['--batch', '3', '--dim', '1000', '--nnz-row', '40', '--nb', '8,100', ...both, ...spmmT] },
    { op: 'spmm', name: 'dim 1000, column-major', args: ['--batch', '3', '--dim', '1000', '--nnz-row', '40', '--nb', '8,100', '--layout', 'col', ...both, ...spmmT] },
    // A_i too wide for one block: batched-slab's slices of rows (several slices a matrix, a short last one), every precision
    { op: 'spmm', name: 'wide dense-ish A_i (slices of rows), every precision', args: ['--batch', '6', '--dim', '150:400', '--nnz-row', '40:150', '--nb', '9,17,40,130', '--precision', 'f32,f64,f16,bf16', ...spmmT] },
    { op: 'spmm', name: 'wide dense-ish A_i (slices of rows), every precision, column-major', args: ['--batch', '6', '--dim', '150:400', '--nnz-row', '40:150', '--nb', '9,17,40,130', '--layout', 'col', '--precision', 'f32,f64,f16,bf16', ...spmmT] },
    // f32 batched-slab with two 16-row strips a warp's pair (32 x 32 warp tiles; m_i not multiples of 32 pad a strip):
    // the planned path, checked by the result's info (expect), small terms apart (k >= 96) and not (k = 64)
    { op: 'spmm', name: 'f32 dense-ish dims 72:128 (batched-slab: two strips a warp, small terms apart)', expect: { method: 'batched-slab', info: 'strips_a_warp', value: 2 }, args: ['--batch', '24', '--dim', '72:128', '--nnz-row', '20:60', '--nb', '70,128', '--precision', 'f32', ...spmmT] },
    { op: 'spmm', name: 'f32 dense-ish dim 64, column-major (batched-slab: two strips a warp)', expect: { method: 'batched-slab', info: 'strips_a_warp', value: 2 }, args: ['--batch', '40', '--dim', '64', '--nnz-row', '16', '--nb', '128,200', '--layout', 'col', '--precision', 'f32', ...spmmT] },
    // 16-bit batched-slab with 12 warps a block (slab_warps_for: 5-8 strips x 4 column groups), and 12 forced onto the
    // odd files (empty rows, nnz-0 and 1×1 matrices: more warps than pairs)
    { op: 'spmm', name: 'f16/bf16 dense-ish dims 65:128, nB 130/192 (batched-slab: 12 warps a block)', expect: { method: 'batched-slab', info: 'warps', value: 12 }, args: ['--batch', '30', '--dim', '65:128', '--nnz-row', '12:40', '--nb', '130,192', ...half, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 files: empty rows, nnz-0 and 1×1 matrices, batched-slab forced to 12 warps', env: { SPB_SPMM_SLAB_WARPS: '12' }, expect: { method: 'batched-slab', info: 'warps', value: 12 }, args: ['--matrices', inp.batch, '--nb', '1,17,130', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] },
    // batched-slab's 16-bit positions (apos) at their edge: 16-bit A_i of 1000 columns fill 64-row slices to 65024 of the
    // 65536 places; at 1040 columns 64 rows would pass it, so the plan takes 48
    ...[['1000', 64], ['1040', 48]].flatMap(([dim, rows]) => ['row', 'col'].map((layout) => ({ op: 'spmm', name: `f16/bf16 dim ${dim}, batch 40, ${layout}-major (batched-slab: ${rows}-row slices, apos's 16 bits)`, expect: { method: 'batched-slab', info: 'slice_rows', value: rows }, args: ['--batch', '40', '--dim', dim, '--nnz-row', '3', '--nb', '9,32', '--layout', layout, ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] }))),
    // f64 batched-tile with 8 warps a block (tile_warps_for: 64-row jobs of A_i taller than 64), both layouts, and 8
    // forced onto small mixed A_i (dims from 6, k <= 128: the odd files' 129-column matrix would make every job multi-panel)
    { op: 'spmm', name: 'f64 dense-ish dims 97:128, nB 40/130/256 (batched-tile: 8 warps a block)', expect: { method: 'batched-tile', info: 'warps', value: 8 }, args: ['--batch', '20', '--dim', '97:128', '--nnz-row', '8:40', '--nb', '40,130,256', '--precision', 'f64', ...spmmT] },
    { op: 'spmm', name: 'f64 dense-ish dims 97:128, nB 40/130/256, column-major (batched-tile: 8 warps a block)', expect: { method: 'batched-tile', info: 'warps', value: 8 }, args: ['--batch', '20', '--dim', '97:128', '--nnz-row', '8:40', '--nb', '40,130,256', '--layout', 'col', '--precision', 'f64', ...spmmT] },
    ...['row', 'col'].map((layout) => ({ op: 'spmm', name: `f64 mixed dims 6:100, batched-tile forced to 8 warps, ${layout}-major`, env: { SPB_SPMM_TILE_WARPS: '8' }, expect: { method: 'batched-tile', info: 'warps', value: 8 }, args: ['--batch', '9', '--dim', '6:100', '--nnz-row', '1:6', '--nb', '1,17,130', '--layout', layout, '--precision', 'f64', ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] })),
    // batched-tile's split k forced to 3 (uneven splits, the last shorter; partial sums added by the last block to arrive)
    { op: 'spmm', name: 'wide dense-ish A_i, batched-tile k split in 3, every precision', env: { SPB_SPMM_TILE_SPLIT: '3' }, args: ['--batch', '4', '--dim', '150:400', '--nnz-row', '40:150', '--nb', '9,40,130', '--precision', 'f32,f64,f16,bf16', ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'wide dense-ish A_i, batched-tile k split in 3, every precision, column-major', env: { SPB_SPMM_TILE_SPLIT: '3' }, args: ['--batch', '4', '--dim', '150:400', '--nnz-row', '40:150', '--nb', '9,40,130', '--layout', 'col', '--precision', 'f32,f64,f16,bf16', ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    // ... and planned: A_i of 850 columns are 7 panels, which the plan splits in 3 (2, 2 and 3 panels a block) on this
    // small grid (81 blocks); splits no longer need to divide the panels
    ...['row', 'col'].map((layout) => ({ op: 'spmm', name: `wide A_i of 7 panels, batched-tile's planned k split in 3 (uneven), every precision, ${layout}-major`, expect: { method: 'batched-tile', info: 'k_split', value: 3 }, args: ['--batch', '3', '--dim', '850', '--nnz-row', '100', '--nb', '8,40', '--layout', layout, '--precision', 'f32,f64,f16,bf16', ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile,batched-split,auto']), ...spmmT] })),
    // 16-bit B / C off 16-byte alignment (column-major m_i, k_i not multiples of 8, odd ones among them; row-major nB
    // not): batched-tile's and batched-slab's MIS kernels (4-byte asynchronous copies, word stores), and aligned
    // batches still on the other kernels
    ...['tile', 'slab'].flatMap((m) => ['row', 'col'].map((layout) => ({ op: 'spmm', name: `f16/bf16 off 16-byte alignment, batched-${m}'s MIS kernels, ${layout}-major`, expect: { method: `batched-${m}`, info: 'misaligned16', value: 1 }, args: ['--batch', '30', '--dim', layout === 'col' ? '33:101' : '40:101', '--nnz-row', '2:30', '--nb', layout === 'col' ? '8,40,130' : '9,42,130', '--layout', layout, ...half, ...(backend === 'cpu' ? [] : ['--methods', `batched-${m}`]), ...spmmT] }))),
    // batched-slab's row-major MIS kernels by nB: one column tile covering nB, B_i and C as flat runs (MIS 3; whole A_i,
    // and slices of rows, whose plan takes 32-column tiles); past it, rows only 2- or 4-byte aligned (nB % 4 != 0)
    // copied a word a lane, 8-byte aligned ones as 16-byte vectors
    ...[['18:120', '1,9,42,100,127'], ['150:300', '9,17']].map(([dim, nb]) => ({ op: 'spmm', name: `f16/bf16 row-major nB ${nb}, dims ${dim}: batched-slab's MIS kernels with B and C as runs`, expect: { method: 'batched-slab', info: 'mis_runs', value: 1 }, args: ['--batch', '30', '--dim', dim, '--nnz-row', '1:18', '--nb', nb, ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] })),
    ...[['131,150', 1], ['132,140', 0]].map(([nb, words]) => ({ op: 'spmm', name: `f16/bf16 row-major nB ${nb}: batched-slab's MIS kernels ${words ? 'with word copies' : 'of 16-byte vectors'}`, expect: { method: 'batched-slab', info: 'mis_words', value: words }, args: ['--batch', '30', '--dim', '20:90', '--nnz-row', '2:18', '--nb', nb, ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] })),
    // the planner's rule 2 (second clause): column-major 16-bit off alignment with nb >= 16 to batched-slab's flat runs
    { op: 'spmm', name: 'f16/bf16 dims 33:101, column-major, nB 20/48: auto takes batched-slab (flat B and C runs)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', '40', '--dim', '33:101', '--nnz-row', '5:30', '--nb', '20,48', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dim 200, 30 a row (density 0.15), row-major, nB 64/136: auto takes batched-slab (rule 2, 16-bit row-major from density 1/12; k 200 is not past rule 2t\'s bound)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', backend === 'cpu' ? '5' : '100', '--dim', '200', '--nnz-row', '30', '--nb', '64,136', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dim 192, 20 a row (density 0.104), row-major, nB 64/136: auto takes batched-slab (rule 2, 16-bit row-major from density 1/12)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', backend === 'cpu' ? '10' : '200', '--dim', '192', '--nnz-row', '20', '--nb', '64,136', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab']), ...spmmT] },
    // batched-slab at nb 5-8 (before batched-split's rule): 16-bit row-major, density >= 1/4, the widest A_i of k 96-256
    { op: 'spmm', name: 'f16/bf16 dim 112, 28 a row, row-major, nB 6/8: auto takes batched-slab (its nb 5-8 clause, before batched-split)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', backend === 'cpu' ? '6' : '300', '--dim', '112', '--nnz-row', '28', '--nb', '6,8', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab']), ...spmmT] },
    // ... where batched-split's threads (rows x lanes a row) pass 3/4 of the resident ones, at any nb 5-8 (here 0.85 of an
    // H100's or H200's), not within it (0.53: split kept)
    { op: 'spmm', name: 'f16/bf16 dim 192, 64 a row, row-major, nB 7, batch 75: auto takes batched-slab (its nb 5-8 clause: split\'s threads past 3/4 of the resident ones)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', backend === 'cpu' ? '3' : '75', '--dim', '192', '--nnz-row', '64', '--nb', '7', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab,batched-split']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dim 128, 32 a row, row-major, nB 8, batch 140: auto keeps batched-split (its threads within 3/4 of the resident ones)', expect: { method: 'auto', info: 'choice', value: 'batched-split' }, args: ['--batch', backend === 'cpu' ? '4' : '140', '--dim', '128', '--nnz-row', '32', '--nb', '8', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab,batched-split']), ...spmmT] },
    // batched-split's B loads as vectors of 2-8 values where nb is not a multiple of 16 bytes (vec_width_for): 16-bit nb
    // 6/10/14 two values a load, nb 4/12 four; f32 nb 2/6/10 two (a value at a time before)
    { op: 'spmm', name: 'f16/bf16 dim 96, 24 a row, row-major, nB 6/10/14: batched-split loads B two values at a time', expect: { method: 'batched-split', info: 'vec_width', value: 2 }, args: ['--batch', backend === 'cpu' ? '4' : '120', '--dim', '96', '--nnz-row', '24', '--nb', '6,10,14', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-split']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dims 40:130, 1-40 a row, row-major, nB 4/12: batched-split loads B four values at a time', expect: { method: 'batched-split', info: 'vec_width', value: 4 }, args: ['--batch', backend === 'cpu' ? '5' : '90', '--dim', '40:130', '--nnz-row', '1:40', '--nb', '4,12', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-split']), ...spmmT] },
    { op: 'spmm', name: 'f32 dims 40:130, 1-40 a row, row-major, nB 2/6/10: batched-split loads B two values at a time', expect: { method: 'batched-split', info: 'vec_width', value: 2 }, args: ['--batch', backend === 'cpu' ? '5' : '90', '--dim', '40:130', '--nnz-row', '1:40', '--nb', '2,6,10', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'batched-split']), ...spmmT] },
    // batched-staged's record walk started g % 16 records in for lane group g (wrapping) where a warp's rows would read their
    // records from the same banks (uniform rows of 16 / 48 at 4-16 groups a warp), and from the first elsewhere (mixed rows)
    ...[['64', '16'], ['200', '48']].flatMap(([dim, z]) => ['row', 'col'].map((layout) => ({ op: 'spmm', name: `dim ${dim}, ${z} a row (uniform), ${layout}-major, nB 5/16: batched-staged's skewed record walk, every precision`, expect: { method: 'batched-staged', info: 'record_skew', value: 1 }, args: ['--batch', backend === 'cpu' ? '3' : '40', '--dim', dim, '--nnz-row', z, '--nb', '5,16', '--layout', layout, '--precision', 'f32,f64,f16,bf16', ...(backend === 'cpu' ? [] : ['--methods', 'batched-staged']), ...spmmT] }))),
    { op: 'spmm', name: 'dims 40:130, 1-40 a row (mixed), row-major, nB 5/16: batched-staged walks each row from its first record', expect: { method: 'batched-staged', info: 'record_skew', value: 0 }, args: ['--batch', backend === 'cpu' ? '5' : '60', '--dim', '40:130', '--nnz-row', '1:40', '--nb', '5,16', '--precision', 'f32,f64,f16,bf16', ...(backend === 'cpu' ? [] : ['--methods', 'batched-staged']), ...spmmT] },
    // batched-csr-flat's and batched-ell's B loads as vectors of 4 or 8 bytes where nb is not a multiple of 16 bytes
    // (vec_plan's mid widths: 16-bit nb 6/10/14 two values a load, nb 4/12 four; f32 nb 2/6/10 two; one value before)
    ...[['csr-flat', '1:40'], ['ell', '1:6']].flatMap(([m, z]) => [
      { op: 'spmm', name: `f16/bf16 dims 40:130, ${z.replace(':', '-')} a row, row-major, nB 6/10/14: batched-${m} loads B two values at a time`, expect: { method: `batched-${m}`, info: 'vec_width', value: 2 }, args: ['--batch', backend === 'cpu' ? '5' : '90', '--dim', '40:130', '--nnz-row', z, '--nb', '6,10,14', ...half, ...(backend === 'cpu' ? [] : ['--methods', `batched-${m}`]), ...spmmT] },
      { op: 'spmm', name: `f16/bf16 dims 40:130, ${z.replace(':', '-')} a row, row-major, nB 4/12: batched-${m} loads B four values at a time`, expect: { method: `batched-${m}`, info: 'vec_width', value: 4 }, args: ['--batch', backend === 'cpu' ? '5' : '90', '--dim', '40:130', '--nnz-row', z, '--nb', '4,12', ...half, ...(backend === 'cpu' ? [] : ['--methods', `batched-${m}`]), ...spmmT] },
      { op: 'spmm', name: `f32 dims 40:130, ${z.replace(':', '-')} a row, row-major, nB 2/6/10: batched-${m} loads B two values at a time`, expect: { method: `batched-${m}`, info: 'vec_width', value: 2 }, args: ['--batch', backend === 'cpu' ? '5' : '90', '--dim', '40:130', '--nnz-row', z, '--nb', '2,6,10', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', `batched-${m}`]), ...spmmT] },
    ]),
    // rule 2t: 16-bit k > 200 (k > 176 at density >= 1/4) where batched-tile takes two strips a warp, above its grid bound, or below it
    // past k 256 with nb >= 96
    { op: 'spmm', name: 'f16/bf16 dim 240, 60 a row, row-major, nB 128/200: auto takes batched-tile with two strips a warp (rule 2t from k 200)', expect: { method: 'auto', info: 'choice', value: 'batched-tile', and: { strips_a_warp: 2 } }, args: ['--batch', backend === 'cpu' ? '4' : '60', '--dim', '240', '--nnz-row', '60', '--nb', '128,200', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dim 192, 64 a row, row-major, nB 64/136: auto takes batched-tile with two strips a warp and A_i whole (rule 2t from k 176 at density >= 1/4)', expect: { method: 'auto', info: 'choice', value: 'batched-tile', and: { strips_a_warp: 2, a_panel_cols: 256 } }, args: ['--batch', backend === 'cpu' ? '4' : '150', '--dim', '192', '--nnz-row', '64', '--nb', '64,136', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dim 768, 200 a row, a few matrices (below batched-tile\'s grid bound), row-major, nB 96: auto takes batched-tile with two strips a warp (rule 2t past k 256)', expect: { method: 'auto', info: 'choice', value: 'batched-tile', and: { strips_a_warp: 2 } }, args: ['--batch', backend === 'cpu' ? '1' : '6', '--dim', '768', '--nnz-row', '200', '--nb', '96', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile']), ...spmmT] },
    // batched-tile's two 16-row strips a warp in 64-row jobs (tile_strips_for: aligned, >= 2 blocks an SM, k > 128 with
    // nb > 32 or k >= 96 with nb >= 96): multi-panel A_i row-major (a partial last column tile at nB 136), one panel column-major
    { op: 'spmm', name: 'f16/bf16 dims 100:300, row-major, nB 72/136: batched-tile with two strips a warp in 64-row chunks (multi-panel A_i)', expect: { method: 'batched-tile', info: 'strips_a_warp', value: 2, and: { chunk_rows: 64 } }, args: ['--batch', backend === 'cpu' ? '4' : '60', '--dim', '100:300', '--nnz-row', '20:90', '--nb', '72,136', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dims 96:128, row-major, nB 104/200: batched-tile with two strips a warp in 64-row chunks (one panel, k not all multiples of 64)', expect: { method: 'batched-tile', info: 'strips_a_warp', value: 2, and: { chunk_rows: 64 } }, args: ['--batch', backend === 'cpu' ? '8' : '200', '--dim', '96:128', '--nnz-row', '10:40', '--nb', '104,200', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dims 120, column-major, nB 96/200: batched-tile with two strips a warp (its streamed path off)', env: { SPB_SPMM_TILE_COL: '0' }, expect: { method: 'batched-tile', info: 'strips_a_warp', value: 2 }, args: ['--batch', backend === 'cpu' ? '6' : '150', '--dim', '120', '--nnz-row', '10:60', '--nb', '96,200', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 dims 240, column-major, nB 72/136: batched-tile with two strips a warp in 64-row chunks (multi-panel A_i, k > 160)', expect: { method: 'batched-tile', info: 'strips_a_warp', value: 2, and: { chunk_rows: 64 } }, args: ['--batch', backend === 'cpu' ? '3' : '60', '--dim', '240', '--nnz-row', '20:100', '--nb', '72,136', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    // batched-tile's A_i held whole (tile_wide: two strips, k 129-192): one fill for a block's column tiles
    ...['row', 'col'].map((layout) => ({ op: 'spmm', name: `f16/bf16 dims 136:192, ${layout}-major, nB 64/136: batched-tile holds A_i whole (k 129-192)`, expect: { method: 'batched-tile', info: 'a_panel_cols', value: 256, and: { strips_a_warp: 2, a_panels: 1 } }, args: ['--batch', backend === 'cpu' ? '6' : '150', '--dim', layout === 'row' ? '136:192' : '176', '--nnz-row', '10:60', '--nb', '64,136', '--layout', layout, ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] })),
    { op: 'spmm', name: 'f16/bf16 dims 64, column-major: batched-tile\'s aligned kernels (its streamed path off)', env: { SPB_SPMM_TILE_COL: '0' }, expect: { method: 'batched-tile', info: 'misaligned16', value: 0 }, args: ['--batch', '30', '--dim', '64', '--nnz-row', '2:30', '--nb', '8,40,130', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    // batched-tile's streamed column-major path (tile_col_kernel: B_i's columns straight into the MMA fragments), every
    // k chunk count (k 8 / 64 / 80 / 128), nB off 16 columns and 1, matrices split into parts of their column groups
    // (a small batch, and forced to 3 parts: uneven), and files of dims that are multiples of 8 with empty rows,
    // an all-zero matrix, rectangular A_i and dense rows
    ...[['8', '3', '1,17,130', 1], ['64', '3', '100,256', 2], ['80', '4', '9,192', 3], ['128', '40', '16,130', 4]].map(([dim, z, nb, kc]) => ({ op: 'spmm', name: `f16/bf16 column-major dim ${dim}, ${z} a row, nB ${nb}: batched-tile's streamed path, ${kc} k chunk${kc > 1 ? 's' : ''}`, expect: { method: 'batched-tile', info: 'k_chunks', value: kc }, args: ['--batch', backend === 'cpu' ? '4' : '300', '--dim', dim, '--nnz-row', z, '--nb', nb, '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] })),
    { op: 'spmm', name: 'f16/bf16 column-major dim 96, 20 a row, batch 5, nB 256: batched-tile\'s streamed path, 4 parts a matrix', expect: { method: 'batched-tile', info: 'col_parts', value: 4 }, args: ['--batch', '5', '--dim', '96', '--nnz-row', '20', '--nb', '256', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 48, 6 a row, nB 130/77: batched-tile\'s streamed path forced to 3 parts a matrix', env: { SPB_SPMM_TILE_COL_S: '3' }, expect: { method: 'batched-tile', info: 'col_parts', value: 3 }, args: ['--batch', '30', '--dim', '48', '--nnz-row', '6', '--nb', '130,77', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 88, 4 a row, nB 64/128: auto takes batched-tile\'s streamed path (rule 6 leaves it rows of 4 from nB 64)', expect: { method: 'auto', info: 'choice', value: 'batched-tile', and: { k_chunks: 3 } }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '88', '--nnz-row', '4', '--nb', '64,128', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 88, 3 a row, nB 64/128: auto keeps batched-col (rule 6, rows of 3)', expect: { method: 'auto', info: 'choice', value: 'batched-col' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '88', '--nnz-row', '3', '--nb', '64,128', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-col']), ...spmmT] },
    // rule 3's exceptions to batched-col: 16-bit at nb <= 16 with rows of <= 8 and mean row x nb <= 96; f32 at nb >= 32 below
    // density 1/4 with rows of <= 8 (controls past each bound stay with batched-tile)
    { op: 'spmm', name: 'f16/bf16 column-major dim 64, 3 a row, nB 8/16: auto takes batched-col (rule 3\'s 16-bit exception, mean row x nB <= 96)', expect: { method: 'auto', info: 'choice', value: 'batched-col' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '64', '--nnz-row', '3', '--nb', '8,16', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 64, 8 a row, nB 16: auto keeps batched-tile (mean row x nB 128)', expect: { method: 'auto', info: 'choice', value: 'batched-tile' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '64', '--nnz-row', '8', '--nb', '16', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f32 column-major dim 64, 8 a row, nB 64/256: auto takes batched-col (rule 3\'s f32 exception, density 1/8)', expect: { method: 'auto', info: 'choice', value: 'batched-col' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '64', '--nnz-row', '8', '--nb', '64,256', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f32 column-major dim 64, 12 a row, nB 64: auto keeps batched-tile (rows past 8)', expect: { method: 'auto', info: 'choice', value: 'batched-tile' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '64', '--nnz-row', '12', '--nb', '64', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-col']), ...spmmT] },
    // rule 2's third clause: f32 column-major, k 65-128, nb >= 32, where batched-tile pads the A_i: batched-slab (k <= 64 keeps tile)
    { op: 'spmm', name: 'f32 column-major dim 72, 12 a row, nB 128/33: auto takes batched-slab (rule 2\'s third clause, tile pads the A_i)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '72', '--nnz-row', '12', '--nb', '128,33', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f32 column-major dim 48, 12 a row, nB 96: auto keeps batched-tile (k <= 64)', expect: { method: 'auto', info: 'choice', value: 'batched-tile' }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '48', '--nnz-row', '12', '--nb', '96', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f32 column-major dim 128, 24 a row, nB 192/65: auto takes batched-slab (rule 2\'s third clause, k > 112, nB >= 64)', expect: { method: 'auto', info: 'choice', value: 'batched-slab' }, args: ['--batch', backend === 'cpu' ? '2' : '200', '--dim', '128', '--nnz-row', '24', '--nb', '192,65', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-tile,batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 64, 5 a row, nB 256/520: batched-tile\'s streamed path through a ring of 3 stages', expect: { method: 'batched-tile', info: 'ring_stages', value: 3 }, args: ['--batch', backend === 'cpu' ? '3' : '600', '--dim', '64', '--nnz-row', '5', '--nb', '256,520', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major files of dims multiples of 8: batched-tile\'s streamed path forced through its ring', env: { SPB_SPMM_TILE_COL_NS: '3' }, expect: { method: 'batched-tile', info: 'ring_stages', value: 3 }, args: ['--matrices', inp.oct, '--nb', '1,17,130', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-tile']), ...spmmT] },
    // batched-slab's streamed row-major path (slab_stream_kernel: pairs of B_i's rows straight into the MMA fragments, k <= 32):
    // 1, 2 and 4 warps a block (by the 32-column groups a matrix), nb off a group, parts of a matrix, files; slab_kernel where
    // k > 32 or with the path off
    ...[['1:20', '1', '4,36,100', 1], ['17:32', '1:16', '256,300', 2], ['32', '8', '512,1028', 4], ['8:32', '2:8', '4,132', 1]].map(([dim, z, nb, w]) => ({ op: 'spmm', name: `f16/bf16 row-major dims ${dim}, ${z} a row, nB ${nb}: batched-slab's streamed path, ${w} warp${w > 1 ? 's' : ''} a block`, expect: { method: 'batched-slab', info: 'warps', value: w, and: { k_chunks: 1 } }, args: ['--batch', backend === 'cpu' ? '4' : '300', '--dim', dim, '--nnz-row', z, '--nb', nb, ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] })),
    { op: 'spmm', name: 'f16/bf16 row-major dim 32, 12 a row, batch 5, nB 256: batched-slab\'s streamed path, 4 parts a matrix', expect: { method: 'batched-slab', info: 'col_parts', value: 4 }, args: ['--batch', '5', '--dim', '32', '--nnz-row', '12', '--nb', '256', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 row-major dim 24, 6 a row, nB 132/68: batched-slab\'s streamed path forced to 3 parts a matrix', env: { SPB_SPMM_SLAB_STREAM_S: '3' }, expect: { method: 'batched-slab', info: 'col_parts', value: 3 }, args: ['--batch', backend === 'cpu' ? '4' : '30', '--dim', '24', '--nnz-row', '6', '--nb', '132,68', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 row-major files of k_i <= 32 (empty rows, nnz-0 and 1×1 matrices, tall and wide ones, dense rows): batched-slab\'s streamed path', expect: { method: 'batched-slab', info: 'k_chunks', value: 1 }, args: ['--matrices', inp.k32, '--nb', '4,36,260', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab,auto']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 row-major dim 16, 8 a row, nB 64/132: auto takes batched-slab\'s streamed path (rule 9 at m <= 16)', expect: { method: 'auto', info: 'choice', value: 'batched-slab', and: { k_chunks: 1 } }, args: ['--batch', backend === 'cpu' ? '3' : '3000', '--dim', '16', '--nnz-row', '8', '--nb', '64,132', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab,batched-csr-flat']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 row-major dim 16, 12 a row, nB 16/32: auto keeps batched-csr-flat (rule 9 at m <= 16 needs two column groups)', expect: { method: 'auto', info: 'choice', value: 'batched-csr-flat' }, args: ['--batch', backend === 'cpu' ? '3' : '3000', '--dim', '16', '--nnz-row', '12', '--nb', '16,32', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'auto,batched-slab,batched-csr-flat']), ...spmmT] },
    ...[['33:64', {}, 'k > 32'], ['17:32', { SPB_SPMM_SLAB_STREAM: '0' }, 'the path off']].map(([dim, env, why]) => ({ op: 'spmm', name: `f16/bf16 row-major dims ${dim}, nB 256: batched-slab's slab_kernel (${why})`, env, expect: { method: 'batched-slab', info: 'mis_runs', value: 0 }, args: ['--batch', backend === 'cpu' ? '4' : '60', '--dim', dim, '--nnz-row', '4:16', '--nb', '256', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-slab']), ...spmmT] })),
    { op: 'spmm', name: 'f16/bf16 column-major files of dims multiples of 8 (empty rows, nnz-0, rectangular, dense rows): batched-tile\'s streamed path', expect: { method: 'batched-tile', info: 'k_chunks', value: 4 }, args: ['--matrices', inp.oct, '--nb', '1,8,17,130', '--layout', 'col', ...half, '--mode', 'kernel,graph', ...spmmT] },
    // f16 / bf16 (16-bit A, B, C; f32 accumulation): 8-wide vectors where nB % 8 == 0, the scalar paths elsewhere
    { op: 'spmm', name: 'f16/bf16: dim 1, nnz/row 1, nB 1/17/33/1000', args: ['--batch', '7', '--dim', '1', '--nnz-row', '1', '--nb', '1,17,33,1000', ...half, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: files: empty rows, nnz-0 and 1×1 matrices, dense rows, all modes', args: ['--matrices', inp.batch, '--nb', '1,8,17,1000', ...half, ...allModes, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: column-major files: empty rows, nnz-0 and 1×1 matrices, dense rows', args: ['--matrices', inp.batch, '--nb', '1,8,17,1000', '--layout', 'col', ...half, '--mode', 'kernel,graph', ...spmmT] },
    // batched-col's two rows a lane (16-bit, every m_i even, rows of at most 3): a word a lane for each column of C; mixed
    // (the matrix looked up) and uniform (B staged)
    { op: 'spmm', name: 'f16/bf16 column-major files of even rows (empty rows, nnz-0, 2×2, k_i odd): batched-col with two rows a lane', expect: { method: 'batched-col', info: 'rows_per_thread', value: 2 }, args: ['--matrices', inp.even, '--nb', '2,8,17,130', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 48, 3 a row: batched-col with two rows a lane, B staged', expect: { method: 'batched-col', info: 'rows_per_thread', value: 2 }, args: ['--batch', backend === 'cpu' ? '4' : '30', '--dim', '48', '--nnz-row', '3', '--nb', '2,5,130', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    // batched-col's streamed path (uniform, ELL slots, 16-bit or f32, m <= 128, B and C >= 4 MB): a warp a strip of rows, chunks
    // of B through its own ring; two rows a lane (even m) and one (odd m: chunk starts off 16 bytes), several matrices a
    // strip (d10) and two strips a warp (d63, d128), nB not a power of two
    { op: 'spmm', name: 'f16/bf16 column-major dim 64, 3 a row, nB 100/256: batched-col streamed', expect: { method: 'batched-col', info: 'cols_per_chunk', value: 16, and: { rows_per_thread: 2 } }, args: ['--batch', backend === 'cpu' ? '4' : '300', '--dim', '64', '--nnz-row', '3', '--nb', '100,256', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 63, 2 a row, nB 100/131: batched-col streamed, one row a lane in two strips, chunks off 16 bytes', expect: { method: 'batched-col', info: 'cols_per_chunk', value: 16, and: { rows_per_thread: 1, strips_a_warp: 2 } }, args: ['--batch', backend === 'cpu' ? '4' : '300', '--dim', '63', '--nnz-row', '2', '--nb', '100,131', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16 column-major dim 96, 8 a row, nB 80/129: batched-col streamed, 8 slots, two row strips a warp', expect: { method: 'batched-col', info: 'ell_slots', value: 8, and: { strips_a_warp: 2, rows_per_thread: 2 } }, args: ['--batch', backend === 'cpu' ? '3' : '300', '--dim', '96', '--nnz-row', '8', '--nb', '80,129', '--layout', 'col', ...half, ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f32 column-major dim 10, 2 a row, nB 33/64: batched-col streamed, six matrices a strip', expect: { method: 'batched-col', info: 'cols_per_chunk', value: 8, and: { rows_per_thread: 2 } }, args: ['--batch', backend === 'cpu' ? '20' : '5000', '--dim', '10', '--nnz-row', '2', '--nb', '33,64', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f32 column-major dim 128, 8 a row, nB 40/100: batched-col streamed, two row strips a warp', expect: { method: 'batched-col', info: 'cols_per_chunk', value: 4, and: { rows_per_thread: 2, strips_a_warp: 2 } }, args: ['--batch', backend === 'cpu' ? '3' : '200', '--dim', '128', '--nnz-row', '8', '--nb', '40,100', '--layout', 'col', '--precision', 'f32', ...(backend === 'cpu' ? [] : ['--methods', 'batched-col']), ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: batch 1, nB 1/8/24/1000', args: ['--batch', '1', '--dim', '64', '--nnz-row', '3', '--nb', '1,8,24,1000', ...half, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: mixed dims 16:200, nnz/row 1:16, nB 5/16/17/264', args: ['--batch', '77', '--dim', '16:200', '--nnz-row', '1:16', '--nb', '5,16,17,264', ...half, '--mode', 'kernel,graph', ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: mixed dims 16:200, nnz/row 1:16, column-major', args: ['--batch', '77', '--dim', '16:200', '--nnz-row', '1:16', '--nb', '5,16,17,264', '--layout', 'col', ...half, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: dense-ish rows (dim 32, nnz/row 16)', args: ['--batch', '300', '--dim', '32', '--nnz-row', '16', '--nb', '16,24,256', ...half, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: dense-ish rows (dim 32, nnz/row 16), column-major', args: ['--batch', '300', '--dim', '32', '--nnz-row', '16', '--nb', '16,24,256', '--layout', 'col', ...half, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: paper case, uniform batch (strided peers), all modes', args: ['--batch', '100', '--dim', '64', '--nnz-row', '3', '--nb', '16,64,256', ...half, ...allModes, ...spmmT] },
    { op: 'spmm', name: 'f16/bf16: dim 1000 (staged column blocks of B)', args: ['--batch', '3', '--dim', '1000', '--nnz-row', '40', '--nb', '8,100', ...half, ...spmmT] },
    { op: 'spmm', name: 'huge batch 10000', args: ['--batch', '10000', '--dim', '64', '--nnz-row', '3', '--nb', '64', ...(backend === 'cpu' ? [] : allModes), ...spmmT] },
    { op: 'spgemm', name: 'empty rows, empty matrix, 1×1', args: [inp.emptyRows, inp.empty, inp.one, ...both, ...spgemmT] },
    { op: 'spgemm', name: 'rectangular A·B (200×350 · 350×90)', args: [inp.rectA, '--b', inp.rectB, ...both, ...spgemmT] },
    { op: 'spgemm', name: 'a row whose products overflow every shared table', args: [inp.wideA, '--b', inp.wideB, ...both, ...spgemmT] },
    { op: 'spgemm', name: 'checked on 300 rows of C gathered on the device: R-MAT, banded with full rows and a full column', args: [...both, ...spgemmT, '--verify', 'rows:300', '--gen', 'rmat:scale=12,ef=8', 'longrow:n=6000,bw=1,long_rows=2,long_cols=1'] },
    { op: 'spgemm', name: 'generated: 3-D 27-point stencil, R-MAT, uniform, banded', args: [...both, ...spgemmT, '--gen', 'stencil:dims=3,n=12,points=27', 'rmat:scale=12,ef=8', 'uniform:rows=5000,nnz_row=8', 'banded:n=2000,bw=9'] },
    { op: 'spgemm', name: 'FEM blocks (the merged puts): 3-D 3×3 blocks, 2-D 2×2 blocks', args: [...both, ...spgemmT, '--gen', 'fem:dims=3,n=10,block=3', 'fem:dims=2,n=60,block=2'] },
    // the symbolic estimates divided by 64 (SPB_SPGEMM_EST_DIV, a switch of the hash SpGEMM's native code): estimated tables
    // fill, and those rows are counted in column bitmaps
    { op: 'spgemm', name: 'symbolic estimates too small: R-MAT, FEM blocks, power law, banded with full rows', env: { SPB_SPGEMM_EST_DIV: '64' }, args: [...both, ...spgemmT, ...(backend === 'cpu' ? [] : ['--methods', 'hash-opt']), '--gen', 'rmat:scale=12,ef=8', 'fem:dims=3,n=10,block=3', 'powerlaw:rows=4000,avg=8,max=1000', 'longrow:n=6000,bw=1,long_rows=2,long_cols=1'] },
  ];
}

// ---- running ----

function runCase(c, backend) {
  const args = [BIN, c.op, ...c.args, '--backend', backend, '--json', '-', '--quiet'];
  const started = Date.now();
  // c.env: a diagnosis switch of the native code for this case (a path the default configuration rarely takes)
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, ...c.env, CI: '1' } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const tail = (s) => (s ?? '').trim().split('\n').slice(-15).join('\n');
  if (r.error) return { crashed: `could not run node: ${r.error.message}`, seconds };
  if (r.status !== 0) return { crashed: `exit ${r.status ?? r.signal}\n${tail(r.stderr)}`, seconds };
  try {
    return { file: JSON.parse(r.stdout), seconds };
  } catch (e) {
    return { crashed: `stdout is not a result file (${e.message})\n${tail(r.stdout)}`, seconds };
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const out = [];
  const say = (s) => {
    out.push(s);
    process.stdout.write(`${s}\n`);
  };
  const dir = mkdtempSync(join(tmpdir(), 'spbench-gpu-test-'));
  let passed = 0;
  let failed = 0;
  let device = null;
  try {
    const inp = writeInputs(dir);
    say(`spbench GPU test: backend ${opts.backend}, ${new Date().toISOString()}`);
    const selected = cases(inp, opts.backend).filter((x) => (!opts.only || x.op === opts.only) && (!opts.match || x.name.includes(opts.match)));
    for (const c of selected.filter((_, i) => !opts.part || i % opts.part.n === opts.part.k - 1)) {
      const r = runCase(c, opts.backend);
      if (r.crashed) {
        failed++;
        say(`FAIL ${c.op}: ${c.name} (${r.seconds} s): the run did not finish: ${r.crashed}`);
        continue;
      }
      if (!device && r.file.device) {
        device = r.file.device;
        say(`device: ${device.name} (cc ${device.cc}), CUDA ${r.file.env?.cuda?.runtime ?? '?'}, driver ${r.file.env?.cuda?.driver ?? '?'}, spbench ${r.file.spbench.commit ?? r.file.spbench.version}`);
      }
      const bad = [];
      const na = [];
      let ok = 0;
      for (const k of r.file.cases) {
        for (const m of k.results) {
          if (m.status === 'ok') {
            ok++;
            // c.expect: the planned path a case is there for, as the method's result info names it (info and value,
            // and the further pairs of `and`)
            const e = c.expect;
            if (e && m.method === e.method)
              for (const [key, want] of [[e.info, e.value], ...Object.entries(e.and ?? {})])
                if (m.info?.[key] !== want) bad.push(`${k.id} ${m.method}: info.${key} is ${m.info?.[key]}, not ${want}: the case missed the path it tests`);
          } else if (m.status === 'not_applicable') na.push(`${m.method} (${m.reason ?? 'no reason'})`);
          else bad.push(`${k.id} ${m.method}: ${m.status.toUpperCase()} ${m.verify?.detail ?? ''} ${m.reason ?? ''}`.trim());
        }
      }
      passed += ok;
      failed += bad.length;
      say(`${bad.length ? 'FAIL' : 'PASS'} ${c.op}: ${c.name} (${r.seconds} s): ${ok} verified, ${bad.length} failed/error, ${na.length} not applicable`);
      for (const b of bad) say(`    ${b}`);
      for (const n of [...new Set(na)]) say(`    n/a: ${n}`);
    }
  } finally {
    if (opts.keep) say(`inputs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  say(`${passed} passed, ${failed} failed`);
  if (opts.log) writeFileSync(opts.log, `${out.join('\n')}\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main();
