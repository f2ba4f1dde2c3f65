// Round trips through every format: each header variant read, written as .spb, read back, written
// as .mtx (and dumps), read again — the canonical CSR never changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertMatrixFile } from '../src/matrix/convert.js';
import { cooToCsr, transposeCsr } from '../src/matrix/csr.js';
import { readDump, writeDump } from '../src/matrix/dump.js';
import { loadMatrix } from '../src/matrix/load.js';
import { readMtx } from '../src/matrix/mtx-read.js';
import { writeMtx } from '../src/matrix/mtx-write.js';
import { UserError } from '../src/util/errors.js';
import { csrOf, dense, plain, scratchDir, writeText } from './mtx-helpers.js';

const dir = scratchDir('roundtrip');

const VARIANTS: Record<string, string> = {
  'coord-real-general': '%%MatrixMarket matrix coordinate real general\n3 4 5\n1 4 0.1\n1 1 -1e-300\n3 1 4.25\n2 3 3\n3 4 123456789.123\n',
  'coord-integer-general': '%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 -7\n2 1 9\n',
  'coord-pattern-general': '%%MatrixMarket matrix coordinate pattern general\n2 3 2\n1 3\n2 1\n',
  'coord-real-symmetric': '%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 -0.5\n3 3 1\n',
  'coord-integer-symmetric': '%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 2 1\n',
  'coord-pattern-symmetric': '%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n',
  'coord-real-skew': '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 1 -2\n',
  'coord-integer-skew': '%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 4\n',
  'coord-real-hermitian': '%%MatrixMarket matrix coordinate real hermitian\n2 2 2\n1 1 1\n2 1 2\n',
  'coord-integer-hermitian': '%%MatrixMarket matrix coordinate integer hermitian\n2 2 1\n2 1 2\n',
  'coord-pattern-hermitian': '%%MatrixMarket matrix coordinate pattern hermitian\n2 2 1\n2 1\n',
  'array-real-general': '%%MatrixMarket matrix array real general\n2 3\n1\n0\n0\n2.5\n-3\n0\n',
  'array-integer-general': '%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n4\n',
  'array-real-symmetric': '%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n',
  'array-integer-symmetric': '%%MatrixMarket matrix array integer symmetric\n2 2\n1\n0\n3\n',
  'array-real-skew': '%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n',
  'array-integer-skew': '%%MatrixMarket matrix array integer skew-symmetric\n2 2\n5\n',
  'array-real-hermitian': '%%MatrixMarket matrix array real hermitian\n2 2\n1\n2\n3\n',
  'array-integer-hermitian': '%%MatrixMarket matrix array integer hermitian\n2 2\n1\n2\n3\n',
};

for (const [name, text] of Object.entries(VARIANTS)) {
  test(`round trip ${name}: mtx → spb → mtx → csr → coo → mtx`, async () => {
    const src = writeText(dir, `${name}.mtx`, text);
    const want = plain((await readMtx(src)).matrix);
    assert.ok(want.values.length > 0);
    const spb = join(dir, `${name}.spb`), mtx = join(dir, `${name}-2.mtx`), csr = join(dir, `${name}.csr`), coo = join(dir, `${name}.coo`);
    await convertMatrixFile({ input: src, output: spb });
    await convertMatrixFile({ input: spb, output: mtx });
    assert.deepEqual(plain((await readMtx(mtx)).matrix), want);
    await convertMatrixFile({ input: mtx, output: csr });
    await convertMatrixFile({ input: csr, output: coo });
    const back = join(dir, `${name}-3.mtx`);
    await convertMatrixFile({ input: coo, output: back });
    assert.deepEqual(plain((await readMtx(back)).matrix), want);
    if (/symmetric|hermitian/.test(name) && !/skew/.test(name)) {
      const sym = join(dir, `${name}-sym.mtx`);
      await convertMatrixFile({ input: spb, output: sym, symmetric: true });
      assert.match(readFileSync(sym, 'utf8'), /^%%MatrixMarket matrix coordinate real symmetric\n/);
      assert.deepEqual(plain((await readMtx(sym)).matrix), want);
    }
  });
}

test('convert .mtx → .spb: the native parser writes the same bytes as the TypeScript writers, or leaves it to them', async () => {
  const { findGxx } = await import('../src/native/toolchain.js');
  const native = findGxx() !== null;
  for (const [name, text] of Object.entries(VARIANTS)) {
    const src = writeText(dir, `nat-${name}.mtx`, text);
    const a = join(dir, `nat-${name}-native.spb`), b = join(dir, `nat-${name}-ts.spb`);
    const s = await convertMatrixFile({ input: src, output: a, nativeMinBytes: 0 });
    const t = await convertMatrixFile({ input: src, output: b, nativeMinBytes: Infinity, cache: false });
    assert.equal(t.via, 'typescript');
    assert.deepEqual(readFileSync(a), readFileSync(b), name);
    assert.deepEqual({ ...s, output: '', via: '' }, { ...t, output: '', via: '' }, name);
    // the native parser takes real, integer and pattern coordinate files; array files stay with TypeScript
    if (native && name === 'coord-real-general') assert.equal(s.via, 'native', name);
    if (name.startsWith('array')) assert.equal(s.via, 'typescript', name);
  }
  const src = writeText(dir, 'nat-w8.mtx', VARIANTS['coord-real-general']);
  const w8 = await convertMatrixFile({ input: src, output: join(dir, 'nat-w8.spb'), nativeMinBytes: 0, indexWidth: 8 });
  assert.equal(w8.via, 'typescript', 'int64 indices asked for: not what mtx2spb writes');
  assert.equal(readFileSync(join(dir, 'nat-w8.spb'))[12], 8);
  const bad = writeText(dir, 'nat-bad.mtx', '%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n4 1 2\n');
  const out = join(dir, 'nat-bad.spb');
  await assert.rejects(convertMatrixFile({ input: bad, output: out, nativeMinBytes: 0 }), (e: unknown) => e instanceof UserError && /nat-bad\.mtx:4: /.test(e.message));
  assert.equal(existsSync(out), false, 'bad input leaves no output file');
  writeFileSync(out, 'an older file');
  await assert.rejects(convertMatrixFile({ input: bad, output: out, nativeMinBytes: 0 }), UserError);
  assert.equal(readFileSync(out, 'utf8'), 'an older file', 'nor touches one that was there');
});

test('.bin is the binary format too: convert a.mtx a.bin && convert a.bin b.mtx', async () => {
  const src = writeText(dir, 'bin.mtx', VARIANTS['coord-real-symmetric']);
  const bin = join(dir, 'a.bin'), out = join(dir, 'b.mtx');
  await convertMatrixFile({ input: src, output: bin });
  assert.equal(readFileSync(bin).toString('latin1', 0, 4), 'SPBM');
  await convertMatrixFile({ input: bin, output: out });
  assert.deepEqual(plain((await readMtx(out)).matrix), plain((await readMtx(src)).matrix));
});

test('f32 .spb output rounds values to single precision', async () => {
  const src = writeText(dir, 'f32.mtx', '%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.1\n');
  const out = join(dir, 'f32.spb');
  await convertMatrixFile({ input: src, output: out, precision: 'f32', indexWidth: 8 });
  assert.equal((await loadMatrix(out)).values[0], Math.fround(0.1));
});

test('convert --transpose, --pattern, --to, and errors for options that do not apply', async () => {
  const src = writeText(dir, 't.mtx', '%%MatrixMarket matrix coordinate real general\n2 3 2\n1 3 5\n2 1 6\n');
  const out = join(dir, 't.out');
  await convertMatrixFile({ input: src, output: out, to: 'mtx', transpose: true, pattern: true });
  assert.equal(readFileSync(out, 'utf8'), '%%MatrixMarket matrix coordinate pattern general\n3 2 2\n1 2\n3 1\n');
  await assert.rejects(convertMatrixFile({ input: src, output: join(dir, 'x.mtx'), symmetric: true }), /not symmetric/);
  await assert.rejects(convertMatrixFile({ input: src, output: join(dir, 'x.csr'), precision: 'f32' }), /apply only to \.spb/);
  await assert.rejects(convertMatrixFile({ input: src, output: join(dir, 'x.txt') }), /cannot tell the output format/);
});

test('transpose and COO → CSR agree with a dense reference on a random matrix (blocked bucketing path)', () => {
  const rows = 5000, cols = 300, nnz = 20000;
  let s = 7;
  const rnd = (n: number) => (s = (s * 48271) % 2147483647) % n;
  const rowIdx = new Int32Array(nnz), colIdx = new Int32Array(nnz), values = new Float64Array(nnz);
  const ref = new Map<number, number>();
  for (let k = 0; k < nnz; k++) {
    rowIdx[k] = rnd(rows);
    colIdx[k] = rnd(cols);
    values[k] = rnd(1000) - 500;
    const key = rowIdx[k] * cols + colIdx[k];
    ref.set(key, (ref.get(key) ?? 0) + values[k]);
  }
  const m = cooToCsr({ rows, cols, nnz, rowIdx, colIdx, values });
  const keys = [...ref.keys()].sort((a, b) => a - b);
  assert.equal(m.rowPtr[rows], keys.length);
  let k = 0;
  for (let r = 0; r < rows; r++) {
    for (let q = m.rowPtr[r]; q < m.rowPtr[r + 1]; q++, k++) {
      assert.equal(r * cols + m.colIdx[q], keys[k]);
      assert.equal(m.values[q], ref.get(keys[k]));
    }
  }
  const t = transposeCsr(m);
  assert.deepEqual(plain(transposeCsr(t)), plain(m));
  assert.equal(t.rows, cols);
});

test('dump formats are the documented text and malformed dumps name the line', async () => {
  const m = csrOf(2, 3, [0, 2, 2], [0, 2], [1.5, -0]);
  const c = join(dir, 'd.csr'), o = join(dir, 'd.coo');
  await writeDump(c, m, 'csr');
  await writeDump(o, m, 'coo');
  assert.equal(readFileSync(c, 'utf8'), '2 3 2\n0 2 2\n0 2\n1.5 -0\n');
  assert.equal(readFileSync(o, 'utf8'), '2 3 2\n0 0 1.5\n0 2 -0\n');
  assert.deepEqual(dense(await readDump(c, 'csr', { chunkSize: 3 })), dense(m));
  assert.deepEqual(dense(await readDump(o, 'coo', { chunkSize: 3 })), dense(m));
  const bad: [string, 'csr' | 'coo', string, RegExp][] = [
    ['b1.csr', 'csr', '2 3 2\n0 2 2\n0 5\n1 2\n', /:3: column index 5 out of range/],
    ['b2.csr', 'csr', '2 3 2\n0 2\n0 1\n1 2\n', /:2: row_ptr line has 2 values, expected 3/],
    ['b3.csr', 'csr', '2 3\n', /:1: header must be "rows cols nnz"/],
    ['b4.coo', 'coo', '2 3 2\n0 0 1\n', /:3: file ends after 1 of the 2 entries/],
    ['b5.coo', 'coo', '2 3 1\n0 0\n', /:2: expected "row col value"/],
    ['b6.coo', 'coo', '2 3 1\n2 0 1\n', /:2: row index 2 out of range 0\.\.1/],
  ];
  for (const [file, kind, text, pattern] of bad) {
    const p = writeText(dir, file, text);
    await assert.rejects(readDump(p, kind), (e: unknown) => e instanceof UserError && e.message.startsWith(`${p}:`) && pattern.test(e.message));
  }
});

test('writeMtx writes shortest round-trip values and leaves no file on a failed symmetric write', async () => {
  const m = csrOf(1, 3, [0, 3], [0, 1, 2], [0.1 + 0.2, 1e21, -5e-324]);
  const p = join(dir, 'w.mtx');
  await writeMtx(p, m);
  assert.equal(readFileSync(p, 'utf8'), '%%MatrixMarket matrix coordinate real general\n1 3 3\n1 1 0.30000000000000004\n1 2 1e+21\n1 3 -5e-324\n');
  assert.deepEqual(plain((await readMtx(p)).matrix), plain(m));
  await assert.rejects(writeMtx(join(dir, 'w2.mtx'), m, { symmetric: true }), /not symmetric/);
});
