// The CPU reference backend, built through ensureExecutable and run on hand-computed cases.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { RuntimeFailure, UserError } from '../src/util/errors.js';
import type { NativeLine, ResultLine } from '../src/native/protocol.js';
import { runNative } from '../src/native/runner.js';
import { A3, cpuExecutable, tempDir, writeSpb, type SmallCsr } from './native-fixtures.js';

let exe = '';
let dir = '';
before(async () => {
  exe = await cpuExecutable();
  dir = tempDir('cpu');
});

const results = (lines: NativeLine[]) => lines.filter((l): l is ResultLine => l.type === 'result');

/** The C matrices a run printed with --dump-output, keyed "method nb=N matrix I". */
function dumpedC(lines: NativeLine[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const l of lines) {
    if (l.type !== 'log') continue;
    const m = /^(.+ matrix \d+) C=(.*)$/.exec(l.message);
    if (m) out.set(m[1], JSON.parse(m[2]));
  }
  return out;
}

function dumpedCsr(lines: NativeLine[]): { row_ptr: number[]; col_idx: number[]; values: number[] } {
  const l = lines.find((x) => x.type === 'log' && x.message.startsWith('cpu-gustavson C'));
  assert.ok(l && l.type === 'log', 'the run printed its C');
  const m = /row_ptr=(\[.*?\]) col_idx=(\[.*?\]) values=(\[.*?\])$/.exec(l.message);
  assert.ok(m, l.message);
  return { row_ptr: JSON.parse(m[1]), col_idx: JSON.parse(m[2]), values: JSON.parse(m[3]) };
}

function assertVerifiedOk(r: ResultLine): void {
  assert.equal(r.status, 'ok', JSON.stringify(r));
  assert.equal(r.family, 'reference');
  assert.equal(r.timed_region, 'cpu-wall');
  assert.equal(r.verify.checked, true);
  assert.equal(r.verify.passed, true);
  assert.equal(r.verify.reference, 'cpu-f64');
}

describe('spbench-cpu spmm', () => {
  // B[k][j] = (k*nb + j) % 7 - 3 with --b-fill index; C worked out by hand from A3.
  const handC: Record<number, number[][]> = {
    2: [[-1, 2], [0, 0], [-3, 0]], // B = [[-3,-2],[-1,0],[1,2]]
    3: [[3, -8, -5], [0, 0, 0], [0, 3, 6]], // B = [[-3,-2,-1],[0,1,2],[3,-3,-2]]
  };

  for (const precision of ['f32', 'f64'] as const) {
    for (const layout of ['row', 'col'] as const) {
      it(`3x3 with an empty row: known C for nb 2 and 3 (${precision}, ${layout}-major), every method verified`, async () => {
        const input = await writeSpb(dir, `a3-${precision}.spb`, [A3], precision);
        const args = ['spmm', '--input', input, '--nb', '2,3', '--precision', precision, '--layout', layout, '--b-fill', 'index', '--dump-output', '--warmup', '1', '--samples', '3'];
        const lines = await runNative(exe, args);
        assert.equal(lines[0].type, 'env');
        assert.equal(lines[lines.length - 1].type, 'done');
        const res = results(lines);
        assert.deepEqual(res.map((r) => `${r.method}/${r.params.nb}`), ['cpu-csr/2', 'cpu-coo/2', 'cpu-csr/3', 'cpu-coo/3']);
        const progress = lines.flatMap((l) => (l.type === 'progress' ? [`${l.done}/${l.total} ${l.label}`] : []));
        assert.deepEqual(progress, ['1/4 cpu-csr nb=2', '2/4 cpu-coo nb=2', '3/4 cpu-csr nb=3', '4/4 cpu-coo nb=3']);
        for (const r of res) {
          assertVerifiedOk(r);
          assert.equal(r.samples_ms.length, 3, 'warm-up runs are not samples');
          assert.equal(r.flops, 2 * 3 * Number(r.params.nb));
          assert.equal(r.params.precision, precision);
          assert.equal(r.params.layout, layout);
          assert.equal(r.params.batch, 1);
          assert.ok(r.peak_mem_bytes >= 3 * Number(r.params.nb) * (precision === 'f32' ? 4 : 8), 'peak includes the output');
        }
        const c = dumpedC(lines);
        for (const method of ['cpu-csr', 'cpu-coo']) for (const nb of [2, 3]) assert.deepEqual(c.get(`${method} nb=${nb} matrix 0`), handC[nb], `${method} nb=${nb}`);
      });
    }
  }

  for (const precision of ['f16', 'bf16'] as const) {
    for (const layout of ['row', 'col'] as const) {
      it(`${precision}: small integers are exact, so the known C comes out (${layout}-major), every method verified with the ${precision} tolerance`, async () => {
        const input = await writeSpb(dir, `a3-${precision}-${layout}.spb`, [A3], 'f32');
        const args = ['spmm', '--input', input, '--nb', '2,3', '--precision', precision, '--layout', layout, '--b-fill', 'index', '--dump-output', '--warmup', '0', '--samples', '2'];
        const lines = await runNative(exe, args);
        const res = results(lines);
        assert.equal(res.length, 4);
        for (const r of res) {
          assertVerifiedOk(r);
          assert.equal(r.params.precision, precision);
          assert.equal(r.verify.tol, precision === 'f16' ? 1e-3 : 8e-3);
          // 2-byte values: A (3 nonzeros, 4 row pointers) + B (3 × nb) + C (3 × nb)
          if (r.method === 'cpu-csr') assert.equal(r.bytes_moved, 4 * 4 + 3 * (4 + 2) + 2 * 3 * Number(r.params.nb) * 2);
        }
        const c = dumpedC(lines);
        for (const method of ['cpu-csr', 'cpu-coo']) for (const nb of [2, 3]) assert.deepEqual(c.get(`${method} nb=${nb} matrix 0`), handC[nb], `${method} nb=${nb}`);
      });
    }
  }

  it('f16 / bf16: A is rounded to the 16-bit type and the reference uses the rounded value', async () => {
    // 1 + 2^-9 is an f16 value (10 fraction bits) but not a bf16 one (7 bits: it rounds to 1); B[0][0] = -3
    const input = await writeSpb(dir, 'round16.spb', [{ rows: 1, cols: 1, rowPtr: [0, 1], colIdx: [0], values: [1 + 2 ** -9] }], 'f32');
    const c = async (precision: string) => {
      const lines = await runNative(exe, ['spmm', '--input', input, '--nb', '1', '--precision', precision, '--b-fill', 'index', '--dump-output', '--samples', '1', '--warmup', '0']);
      for (const r of results(lines)) assertVerifiedOk(r);
      return dumpedC(lines).get('cpu-coo nb=1 matrix 0');
    };
    assert.deepEqual(await c('f16'), [[-3 * (1 + 2 ** -9)]]);
    assert.deepEqual(await c('bf16'), [[-3]]);
    assert.deepEqual(await c('f32'), [[-3 * (1 + 2 ** -9)]]);
  });

  it('f16 / bf16 with random B on a mixed batch: C is stored in 16 bits (errors of the output rounding), within the tolerance', async () => {
    const mats: SmallCsr[] = [A3, { rows: 1, cols: 1, rowPtr: [0, 1], colIdx: [0], values: [0.3] }, { rows: 2, cols: 4, rowPtr: [0, 0, 0], colIdx: [], values: [] },
      { rows: 4, cols: 5, rowPtr: [0, 3, 3, 5, 8], colIdx: [0, 2, 4, 1, 3, 0, 1, 4], values: [0.1, -0.7, 0.35, 0.9, -0.2, 0.45, 0.6, -0.15] }];
    const input = await writeSpb(dir, 'mixed16.spb', mats, 'f32');
    for (const [precision, ulp] of [['f16', 2 ** -11], ['bf16', 2 ** -8]] as const) {
      const lines = await runNative(exe, ['spmm', '--input', input, '--nb', '1,17,64', '--precision', precision, '--samples', '1', '--warmup', '0']);
      const res = results(lines);
      assert.equal(res.length, 6);
      for (const r of res) {
        assertVerifiedOk(r);
        const err = r.verify.max_rel_err ?? NaN;
        // within half an ulp of the output rounding plus f32 sums, and not the 1e-7 of an f32 output
        assert.ok(err <= ulp * 1.01 && err > ulp / 64, `${precision} ${r.method} nb ${r.params.nb}: error ${err}`);
      }
    }
  });

  it('f16: an unwritten output row is caught by the NaN poison (16-bit NaN)', async () => {
    const input = await writeSpb(dir, 'a3-fault16.spb', [A3], 'f32');
    const [r] = results(await runNative(exe, ['spmm', '--input', input, '--nb', '4', '--methods', 'cpu-csr', '--precision', 'f16', '--inject-fault', '--samples', '1']));
    assert.equal(r.status, 'failed');
    assert.equal(r.verify.passed, false);
    assert.match(r.verify.detail ?? '', /row 2 column 0: non-finite output nan/);
  });

  it('spgemm refuses f16 (SpGEMM has f32 and f64 only)', async () => {
    const input = await writeSpb(dir, 'a3-spgemm16.spb', [A3]);
    await assert.rejects(runNative(exe, ['spgemm', '--a', input, '--precision', 'f16']), (e: Error) => e instanceof UserError && /--precision must be f32\|f64, got 'f16'/.test(e.message));
  });

  it('mixed batch: 3x3, 1x1 and an empty 2x4 matrix', async () => {
    const input = await writeSpb(dir, 'mixed.spb', [A3, { rows: 1, cols: 1, rowPtr: [0, 1], colIdx: [0], values: [2.5] }, { rows: 2, cols: 4, rowPtr: [0, 0, 0], colIdx: [], values: [] }]);
    const lines = await runNative(exe, ['spmm', '--input', input, '--nb', '2', '--precision', 'f64', '--b-fill', 'index', '--dump-output', '--samples', '1', '--warmup', '0']);
    const res = results(lines);
    assert.equal(res.length, 2);
    for (const r of res) {
      assertVerifiedOk(r);
      assert.equal(r.params.batch, 3);
      assert.equal(r.flops, 2 * 4 * 2);
    }
    const c = dumpedC(lines);
    assert.deepEqual(c.get('cpu-csr nb=2 matrix 1'), [[-7.5, -5]]);
    assert.deepEqual(c.get('cpu-coo nb=2 matrix 2'), [[0, 0], [0, 0]]);
  });

  it('reads int64-index files the same as int32 ones', async () => {
    const input = await writeSpb(dir, 'a3-i64.spb', [A3], 'f64', 8);
    const lines = await runNative(exe, ['spmm', '--input', input, '--nb', '2', '--b-fill', 'index', '--dump-output', '--samples', '1']);
    for (const r of results(lines)) assertVerifiedOk(r);
    assert.deepEqual(dumpedC(lines).get('cpu-coo nb=2 matrix 0'), handC[2]);
  });

  it('random B from the seed: verified for an odd n_B, and the same seed gives the same C', async () => {
    const input = await writeSpb(dir, 'a3-rand.spb', [A3]);
    const run = (seed: string) => runNative(exe, ['spmm', '--input', input, '--nb', '5', '--methods', 'cpu-csr', '--seed', seed, '--dump-output', '--samples', '2']);
    const [a, b, c] = await Promise.all([run('7'), run('7'), run('8')]);
    assertVerifiedOk(results(a)[0]);
    assert.deepEqual(dumpedC(a), dumpedC(b));
    assert.notDeepEqual(dumpedC(a), dumpedC(c));
  });

  it('an unwritten output row is caught by the NaN poison: status failed, no pass, the row named', async () => {
    const input = await writeSpb(dir, 'a3-fault.spb', [A3]);
    const lines = await runNative(exe, ['spmm', '--input', input, '--nb', '4', '--methods', 'cpu-csr', '--inject-fault', '--samples', '1']);
    const [r] = results(lines);
    assert.equal(r.status, 'failed');
    assert.equal(r.verify.checked, true);
    assert.equal(r.verify.passed, false);
    assert.equal(r.verify.max_rel_err, null);
    assert.match(r.verify.detail ?? '', /matrix 0 row 2 column 0: non-finite output/);
  });
});

describe('spbench-cpu spgemm', () => {
  it('A·A of the 3x3 with an empty row: hand-computed pattern and values', async () => {
    const a = await writeSpb(dir, 'g-a3.spb', [A3]);
    const lines = await runNative(exe, ['spgemm', '--a', a, '--precision', 'f64', '--dump-output', '--breakdown', '--explain', '--samples', '2']);
    const [r] = results(lines);
    assertVerifiedOk(r);
    assert.equal(r.method, 'cpu-gustavson');
    assert.equal(r.params.a_times_a, true);
    assert.equal(r.flops, 2 * 3); // products: row 0 → rows 0 (2 entries) and 2 (1); row 2 → row 1 (empty)
    assert.deepEqual(Object.keys(r.breakdown_ms ?? {}).sort(), ['count', 'fill', 'scan+alloc']);
    assert.ok(lines.some((l) => l.type === 'explain' && l.op === 'spgemm'));
    // [[1,0,2],[0,0,0],[0,3,0]]^2 = [[1,6,2],[0,0,0],[0,0,0]]
    assert.deepEqual(dumpedCsr(lines), { row_ptr: [0, 3, 3, 3], col_idx: [0, 1, 2], values: [1, 6, 2] });
  });

  it('A·B keeps a structural entry that cancels to zero, and 1x1 operands work', async () => {
    const a = await writeSpb(dir, 'g-a.spb', [{ rows: 2, cols: 3, rowPtr: [0, 2, 2], colIdx: [0, 2], values: [1, 2] }], 'f32');
    const b = await writeSpb(dir, 'g-b.spb', [{ rows: 3, cols: 2, rowPtr: [0, 2, 2, 3], colIdx: [0, 1, 1], values: [1, 1, -0.5] }], 'f32');
    const lines = await runNative(exe, ['spgemm', '--a', a, '--b', b, '--precision', 'f32', '--dump-output', '--samples', '1']);
    assertVerifiedOk(results(lines)[0]);
    assert.equal(results(lines)[0].params.a_times_a, false);
    assert.deepEqual(dumpedCsr(lines), { row_ptr: [0, 2, 2], col_idx: [0, 1], values: [1, 0] });

    const one = await writeSpb(dir, 'g-1.spb', [{ rows: 1, cols: 1, rowPtr: [0, 1], colIdx: [0], values: [2] }]);
    const three = await writeSpb(dir, 'g-3.spb', [{ rows: 1, cols: 1, rowPtr: [0, 1], colIdx: [0], values: [3] }]);
    const l1 = await runNative(exe, ['spgemm', '--a', one, '--b', three, '--precision', 'f64', '--dump-output']);
    assertVerifiedOk(results(l1)[0]);
    assert.equal(results(l1)[0].flops, 2);
    assert.deepEqual(dumpedCsr(l1), { row_ptr: [0, 1], col_idx: [0], values: [6] });

    const empty = await writeSpb(dir, 'g-0.spb', [{ rows: 1, cols: 1, rowPtr: [0, 0], colIdx: [], values: [] }]);
    const l0 = await runNative(exe, ['spgemm', '--a', empty, '--precision', 'f64', '--dump-output']);
    assertVerifiedOk(results(l0)[0]);
    assert.deepEqual(dumpedCsr(l0), { row_ptr: [0, 0], col_idx: [], values: [] });
  });
});

describe('spbench-cpu spgemm reference: rows:N, the cache, a planted fault', () => {
  // 3000 rows (more than one chunk of the reference's threads): row i holds i, i+1 and, every 100th row, 400 columns
  // spread over the matrix, so those rows have the most products.
  const big = (n = 3000): SmallCsr => {
    const rowPtr = [0], colIdx: number[] = [], values: number[] = [];
    for (let i = 0; i < n; i++) {
      const cols = new Set([i, (i + 1) % n]);
      if (i % 100 === 0) for (let k = 0; k < 400; k++) cols.add((i * 7 + k * 13) % n);
      for (const c of [...cols].sort((x, y) => x - y)) { colIdx.push(c); values.push(((c * 31 + i) % 17) / 8 - 1); }
      rowPtr.push(colIdx.length);
    }
    return { rows: n, cols: n, rowPtr, colIdx, values };
  };
  const run = async (args: string[]) => results(await runNative(exe, ['spgemm', '--precision', 'f64', '--samples', '1', ...args]))[0];

  it('rows:N checks N rows, the longest among them, and says so; the full check and rows:N agree on a good result', async () => {
    const a = await writeSpb(dir, 'ref-big.spb', [big()]);
    const full = await run(['--a', a]);
    assertVerifiedOk(full);
    const some = await run(['--a', a, '--reference', 'rows:40', '--verify-seed', '7']);
    assert.equal(some.status, 'ok', JSON.stringify(some));
    assert.equal(some.verify.checked, true);
    assert.equal(some.verify.reference, 'cpu-f64 rows:40 (longest and seeded)');
    const all = await run(['--a', a, '--reference', 'rows:5000']);
    assert.equal(all.verify.reference, 'cpu-f64', 'rows:N beyond the rows of A checks every row');
  });

  it('a wrong value in the row with the most products fails the full check and every rows:N draw', async () => {
    const a = await writeSpb(dir, 'ref-fault.spb', [big()]);
    for (const ref of [[], ['--reference', 'rows:1'], ['--reference', 'rows:16', '--verify-seed', '3']]) {
      const r = await run(['--a', a, '--inject-fault', ...ref]);
      assert.equal(r.status, 'failed', `${ref.join(' ')}: ${JSON.stringify(r.verify)}`);
      assert.match(r.verify.detail ?? '', /^value in row \d+, entry \d+: got /);
    }
    const none = await run(['--a', a, '--inject-fault', '--reference', 'none']);
    assert.equal(none.verify.checked, false);
  });

  it('a full reference is cached by the operands and precision: the second run reads it; a corrupt entry is recomputed', async () => {
    const cache = tempDir('refcache');
    const a = await writeSpb(dir, 'ref-cache.spb', [big()]);
    const first = await run(['--a', a, '--reference-cache', cache]);
    assertVerifiedOk(first);
    assert.equal(first.info?.reference_cached, undefined);
    const files = readdirSync(cache).filter((f) => f.endsWith('.spb'));
    assert.equal(files.length, 1, 'one reference file');
    const second = await run(['--a', a, '--reference-cache', cache]);
    assertVerifiedOk(second);
    assert.equal(second.info?.reference_cached, 1);
    const f32 = results(await runNative(exe, ['spgemm', '--a', a, '--precision', 'f32', '--samples', '1', '--reference-cache', cache]))[0];
    assert.equal(f32.info?.reference_cached, undefined, 'another precision is another reference');
    assert.equal(readdirSync(cache).filter((f) => f.endsWith('.spb')).length, 2);
    truncateSync(join(cache, files[0]), 100);
    const third = await run(['--a', a, '--reference-cache', cache, '--inject-fault']);
    assert.equal(third.status, 'failed', 'the recomputed reference still catches a wrong value');
    assert.equal(third.info?.reference_cached, undefined);
  });

  it('auto checks every row up to its product bound and 4096 rows (the longest among them) above it, and says why', async () => {
    const a = await writeSpb(dir, 'ref-auto.spb', [big(5000)]);
    assertVerifiedOk(await run(['--a', a, '--reference', 'auto']));
    assert.equal((await run(['--a', a, '--reference', 'auto'])).verify.reference, 'cpu-f64');
    // the bound lowered through the test seam, so 5000 rows of ~25 k products cross it
    const env = { ...process.env, SPBENCH_VERIFY_AUTO_PRODUCTS: '1000' };
    const low = async (args: string[]) => results(await runNative(exe, ['spgemm', '--precision', 'f64', '--samples', '1', '--a', a, '--reference', 'auto', ...args], { env }))[0];
    const some = await low([]);
    assert.deepEqual([some.status, some.verify.checked, some.verify.passed], ['ok', true, true], JSON.stringify(some.verify));
    assert.match(some.verify.reference, /^cpu-f64 rows:4096 \(longest and seeded; auto: \d+ products, above the full reference's 1000 \(--verify full checks every row\)\)$/);
    const bad = await low(['--inject-fault']);
    assert.equal(bad.status, 'failed', 'the faulty longest row is among the rows checked');
  });

  it('a rows:N reference is cached by the operands, precision, N and seed', async () => {
    const cache = tempDir('refcache-rows');
    const a = await writeSpb(dir, 'ref-rows-cache.spb', [big()]);
    const args = ['--a', a, '--reference', 'rows:40', '--verify-seed', '7', '--reference-cache', cache];
    assert.equal((await run(args)).info?.reference_cached, undefined);
    assert.deepEqual(readdirSync(cache).filter((f) => f.endsWith('.spb')).map((f) => f.replace(/[0-9a-f]{16}/, 'H')), ['spgemm-ref-H-rows40-seed7.spb']);
    const second = await run(args);
    assert.deepEqual([second.status, second.verify.checked, second.verify.passed], ['ok', true, true], JSON.stringify(second.verify));
    assert.equal(second.info?.reference_cached, 1);
    assert.equal(second.verify.reference, 'cpu-f64 rows:40 (longest and seeded)');
    const other = await run(['--a', a, '--reference', 'rows:40', '--verify-seed', '8', '--reference-cache', cache]);
    assert.equal(other.info?.reference_cached, undefined, 'another seed draws other rows');
    const faulty = await run([...args, '--inject-fault']);
    assert.equal(faulty.status, 'failed', 'a cached rows reference still catches a wrong value');
  });

  it('a bad --reference is a usage error', () => {
    const r = spawnSync(exe, ['spgemm', '--a', join(dir, 'ref-big.spb'), '--reference', 'rows:0'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--reference must be auto, cpu, none or rows:N with N >= 1, got 'rows:0'/);
  });
});

describe('spbench-cpu bad input', () => {
  const cases: Array<[string, () => Promise<string[]>, RegExp]> = [
    ['missing --input', async () => ['spmm', '--nb', '2'], /missing --input/],
    ['truncated .spb', async () => {
      const p = await writeSpb(dir, 'trunc.spb', [A3]);
      truncateSync(p, 40);
      return ['spmm', '--input', p];
    }, /truncated or corrupt/],
    ['not an .spb file', async () => {
      const p = join(dir, 'text.spb');
      writeFileSync(p, '%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n');
      return ['spmm', '--input', p];
    }, /bad magic/],
    ['missing file', async () => ['spmm', '--input', join(dir, 'nope.spb')], /cannot open file/],
    ['unknown method', async () => ['spmm', '--input', await writeSpb(dir, 'm.spb', [A3]), '--methods', 'cpu-csr,nope'], /unknown method 'nope'/],
    ['bad precision', async () => ['spmm', '--input', await writeSpb(dir, 'm.spb', [A3]), '--precision', 'f8'], /--precision must be f32\|f64\|f16\|bf16, got 'f8'/],
    ['bad n_B', async () => ['spmm', '--input', await writeSpb(dir, 'm.spb', [A3]), '--nb', '0'], /--nb values must be/],
    ['unknown command', async () => ['transpose'], /unknown command 'transpose'/],
    ['SpGEMM shape mismatch', async () => ['spgemm', '--a', await writeSpb(dir, 'r.spb', [{ rows: 1, cols: 2, rowPtr: [0, 1], colIdx: [1], values: [1] }])], /cannot multiply: A is 1 x 2 but B has 1 rows/],
    ['SpGEMM given a batch', async () => ['spgemm', '--a', await writeSpb(dir, 'two.spb', [A3, A3])], /expects one matrix, the file holds 2/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 2 with a message on stderr and nothing on stdout`, async () => {
      const r = spawnSync(exe, await args(), { encoding: 'utf8' });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    });
  }

  it("through runNative: a usage error (exit 2 at the CLI) carrying the child's sentence", async () => {
    await assert.rejects(runNative(exe, ['spmm', '--nb', '2']), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.ok(!(e instanceof RuntimeFailure));
      assert.match(e.message, /missing --input/);
      assert.doesNotMatch(e.message, /^spbench-cpu/, 'the executable name prefix is dropped');
      return true;
    });
  });
});
