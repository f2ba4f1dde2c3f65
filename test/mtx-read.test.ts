import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readMtx } from '../src/matrix/mtx-read.js';
import { csrOf, plain, scratchDir, writeText } from './mtx-helpers.js';

const dir = scratchDir('mtx-read');
const read = async (name: string, text: string, chunkSize?: number) => readMtx(writeText(dir, name, text), { chunkSize });

// General 3x4 matrix used by the coordinate variants:
// [ 1  0  0  2 ]
// [ 0  0  3  0 ]
// [ 4  0  0  5 ]
const GENERAL = csrOf(3, 4, [0, 2, 3, 5], [0, 3, 2, 0, 3], [1, 2, 3, 4, 5]);
const GENERAL_ONES = csrOf(3, 4, [0, 2, 3, 5], [0, 3, 2, 0, 3], [1, 1, 1, 1, 1]);
// Lower triangle (1,1)=1, (2,1)=2, (3,2)=3, (3,3)=4 of a 3x3 matrix, expanded:
const SYM = csrOf(3, 3, [0, 2, 4, 6], [0, 1, 0, 2, 1, 2], [1, 2, 2, 3, 3, 4]);
const SYM_ONES = csrOf(3, 3, [0, 2, 4, 6], [0, 1, 0, 2, 1, 2], [1, 1, 1, 1, 1, 1]);
// Skew: (2,1)=2, (3,2)=3 (no diagonal): A = [0 -2 0; 2 0 -3; 0 3 0]
const SKEW = csrOf(3, 3, [0, 1, 3, 4], [1, 0, 2, 1], [-2, 2, -3, 3]);

const coordGeneral = (field: string, withValues: boolean) =>
  `%%MatrixMarket matrix coordinate ${field} general\n% a comment\n3 4 5\n` +
  ['1 4 2', '1 1 1', '3 1 4', '2 3 3', '3 4 5'].map((l) => (withValues ? l : l.split(' ').slice(0, 2).join(' '))).join('\n') +
  '\n';
const coordLower = (field: string, sym: string, withValues: boolean) =>
  `%%MatrixMarket matrix coordinate ${field} ${sym}\n3 3 4\n` +
  ['1 1 1', '2 1 2', '3 2 3', '3 3 4'].map((l) => (withValues ? l : l.split(' ').slice(0, 2).join(' '))).join('\n') +
  '\n';

for (const field of ['real', 'integer', 'pattern']) {
  const values = field !== 'pattern';
  test(`coordinate ${field} general`, async () => {
    const { header, matrix } = await read(`cg-${field}.mtx`, coordGeneral(field, values));
    assert.deepEqual(header, { format: 'coordinate', field, symmetry: 'general' });
    assert.deepEqual(plain(matrix), plain(values ? GENERAL : GENERAL_ONES));
  });
  for (const sym of ['symmetric', 'hermitian']) {
    test(`coordinate ${field} ${sym} is expanded, diagonal not doubled`, async () => {
      const { header, matrix } = await read(`cs-${field}-${sym}.mtx`, coordLower(field, sym, values));
      assert.equal(header.symmetry, sym);
      assert.deepEqual(plain(matrix), plain(values ? SYM : SYM_ONES));
    });
  }
  if (values) {
    test(`coordinate ${field} skew-symmetric is mirrored with negation`, async () => {
      const text = `%%MatrixMarket matrix coordinate ${field} skew-symmetric\n3 3 2\n2 1 2\n3 2 3\n`;
      const { matrix } = await read(`ck-${field}.mtx`, text);
      assert.deepEqual(plain(matrix), plain(SKEW));
    });
  }
}

for (const field of ['real', 'integer']) {
  test(`array ${field} general is column-major, zeros dropped`, async () => {
    // column-major listing of the 3x4 GENERAL matrix
    const vals = [1, 0, 4, 0, 0, 0, 0, 3, 0, 2, 0, 5];
    const { header, matrix } = await read(`ag-${field}.mtx`, `%%MatrixMarket matrix array ${field} general\n3 4\n${vals.join('\n')}\n`);
    assert.deepEqual(header, { format: 'array', field, symmetry: 'general' });
    assert.deepEqual(plain(matrix), plain(GENERAL));
  });
  for (const sym of ['symmetric', 'hermitian']) {
    test(`array ${field} ${sym} lists the lower triangle column by column`, async () => {
      // columns: (1,1)=1 (2,1)=2 (3,1)=0 | (2,2)=0 (3,2)=3 | (3,3)=4
      const { matrix } = await read(`as-${field}-${sym}.mtx`, `%%MatrixMarket matrix array ${field} ${sym}\n3 3\n1\n2\n0\n0\n3\n4\n`);
      assert.deepEqual(plain(matrix), plain(SYM));
    });
  }
  test(`array ${field} skew-symmetric lists the strict lower triangle`, async () => {
    const { matrix } = await read(`ak-${field}.mtx`, `%%MatrixMarket matrix array ${field} skew-symmetric\n3 3\n2\n0\n3\n`);
    assert.deepEqual(plain(matrix), plain(SKEW));
  });
}

test('CRLF line endings, blank lines and comments anywhere after the banner', async () => {
  const text = '%%MatrixMarket matrix coordinate real general\r\n%c\r\n\r\n3 4 5\r\n1 4 2\r\n% mid\r\n\r\n1 1 1\r\n3 1 4\r\n2 3 3\r\n   3   4\t5  \r\n% end\r\n\r\n';
  const { matrix } = await read('crlf.mtx', text);
  assert.deepEqual(plain(matrix), plain(GENERAL));
});

test('duplicates are summed and unsorted input comes out canonical', async () => {
  const text = '%%MatrixMarket matrix coordinate real general\n2 3 5\n2 3 1\n1 2 0.5\n2 1 7\n1 2 0.25\n2 3 -3\n';
  const { matrix } = await read('dups.mtx', text);
  assert.deepEqual(plain(matrix), plain(csrOf(2, 3, [0, 1, 3], [1, 0, 2], [0.75, 7, -2])));
});

test('case-insensitive banner, last line without newline, empty matrix', async () => {
  let r = await read('case.mtx', '%%matrixmarket MATRIX Coordinate REAL General\n2 2 1\n2 2 9');
  assert.deepEqual(plain(r.matrix), plain(csrOf(2, 2, [0, 0, 1], [1], [9])));
  r = await read('empty.mtx', '%%MatrixMarket matrix coordinate real general\n4 5 0\n');
  assert.deepEqual(plain(r.matrix), plain(csrOf(4, 5, [0, 0, 0, 0, 0], [], [])));
});

test('values parse to the same double as parseFloat (fast and fallback paths)', async () => {
  const toks = ['0.1', '-0', '1e-300', '123456789012345678', '0.30000000000000004', '2.5E+3', '.5', '-7.', '+3', '1e22', '1e23',
    '9007199254740993', '4.9406564584124654e-324', '1.7976931348623157e308', '000123.4500', '-1.5e-7', 'inf', '-Infinity', '123456.7890123456789', '4.0000000000000000e+00', '1.2500000000000000000000E-01', '1234567890123450000', '1234567890123450001',
    '0.000000000000000000012345', '100000000000000000000000', '-9.9999999999999999e+22', '1.00000000000000011102230246251565404236316680908203125'];
  const text = `%%MatrixMarket matrix coordinate real general\n1 ${toks.length} ${toks.length}\n` + toks.map((t, i) => `1 ${i + 1} ${t}`).join('\n') + '\n';
  const { matrix } = await read('numbers.mtx', text);
  toks.forEach((t, i) => {
    const want = /inf/i.test(t) ? (t.startsWith('-') ? -Infinity : Infinity) : parseFloat(t);
    assert.ok(Object.is(matrix.values[i], want), `${t}: got ${matrix.values[i]}, want ${want}`);
  });
  const nan = await read('nan.mtx', '%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 NaN\n');
  assert.ok(Number.isNaN(nan.matrix.values[0]));
});

test('chunk boundaries: every tiny chunk size gives the same matrix', async () => {
  const lines: string[] = [];
  let s = 12345;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = 0; i < 300; i++) lines.push(`${1 + Math.floor(rnd() * 40)} ${1 + Math.floor(rnd() * 30)} ${(rnd() * 2 - 1).toPrecision(1 + (i % 17))}`);
  const text = `%%MatrixMarket matrix coordinate real general\n% long comment ${'x'.repeat(100)}\n40 30 300\n${lines.join('\r\n')}\n`;
  const ref = plain((await read('chunks.mtx', text)).matrix);
  assert.ok(ref.values.length > 200);
  for (const chunk of [2, 3, 5, 7, 16, 31, 64, 1000]) {
    assert.deepEqual(plain((await readMtx(`${dir}/chunks.mtx`, { chunkSize: chunk })).matrix), ref, `chunk ${chunk}`);
  }
  const arr = `%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n0\n0\n3\n4\n`;
  for (const chunk of [2, 3, 5]) assert.deepEqual(plain((await read('arr-chunks.mtx', arr, chunk)).matrix), plain(SYM));
});

test('parallel reading (worker threads) gives the same CSR and the same errors as the serial reader', async () => {
  const gen = (sym: string, order: 'col' | 'random', n: number) => {
    const lines: string[] = [];
    let s = 99;
    const rnd = (k: number) => (s = (s * 48271) % 2147483647) % k;
    for (let j = 1; j <= n; j++) {
      for (let i = sym === 'general' ? 1 : sym === 'symmetric' ? j : j + 1; i <= n; i += 1 + rnd(7)) lines.push(`${i} ${j} ${rnd(100) / 8 - 6}`);
    }
    if (order === 'random') lines.sort(() => 0).reverse();
    return `%%MatrixMarket matrix coordinate real ${sym}\n% c\n${n} ${n} ${lines.length}\n${lines.join('\n')}\n`;
  };
  for (const [sym, order] of [['general', 'col'], ['general', 'random'], ['symmetric', 'col'], ['skew-symmetric', 'random']] as const) {
    const text = gen(sym, order, 120);
    const p = writeText(dir, `par-${sym}-${order}.mtx`, text);
    const serial = await readMtx(p, { threads: 1 });
    for (const threads of [2, 3]) {
      const par = await readMtx(p, { threads, parallelMinBytes: 0 });
      assert.deepEqual(plain(par.matrix), plain(serial.matrix), `${sym} ${order} threads=${threads}`);
      assert.deepEqual(par.header, serial.header);
    }
  }
  const arr = writeText(dir, 'par-array.mtx', `%%MatrixMarket matrix array real general\n3 40\n${Array.from({ length: 120 }, (_, i) => i % 7).join('\n')}\n`);
  assert.deepEqual(plain((await readMtx(arr, { threads: 2, parallelMinBytes: 0 })).matrix), plain((await readMtx(arr, { threads: 1 })).matrix));
  const bad = writeText(dir, 'par-bad.mtx', gen('general', 'col', 60).replace(/\n5 7 /, '\n5 7 x'));
  const serialErr = await readMtx(bad, { threads: 1 }).catch((e: Error) => e.message);
  const parErr = await readMtx(bad, { threads: 2, parallelMinBytes: 0 }).catch((e: Error) => e.message);
  assert.match(String(serialErr), /:\d+: bad value "x/);
  assert.equal(parErr, serialErr);
});

test('randomised: byte-level value parsing equals parseFloat on thousands of formats', async () => {
  let s = 2024;
  const rnd = () => (s = (s * 48271) % 2147483647) / 2147483647;
  const toks: string[] = [];
  for (let i = 0; i < 6000; i++) {
    const x = (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 40 - 20);
    const f = i % 8;
    toks.push(
      f === 0 ? String(x) : f === 1 ? x.toExponential(16) : f === 2 ? x.toPrecision(1 + (i % 21)) : f === 3 ? x.toFixed(i % 20)
        : f === 4 ? x.toExponential(i % 8) : f === 5 ? String(Math.round(x * 1e6)) : f === 6 ? x.toPrecision(16 + (i % 4)) : x.toExponential(15 + (i % 4)),
    );
  }
  // 16-19 digit integers at and around the midpoints between doubles (ties-to-even cases)
  for (let e = 54; e < 63; e++) {
    const mid = 2n ** BigInt(e) + 2n ** BigInt(e - 53) * 3n;
    for (const m of [mid - 1n, mid, mid + 1n]) toks.push(m.toString());
  }
  const text = `%%MatrixMarket matrix coordinate real general\n1 ${toks.length} ${toks.length}\n` + toks.map((t, i) => `1 ${i + 1} ${t}`).join('\n') + '\n';
  const { matrix } = await read('random-numbers.mtx', text, 4096);
  toks.forEach((t, i) => assert.ok(Object.is(matrix.values[i], parseFloat(t)), `${t}: got ${matrix.values[i]}, want ${parseFloat(t)}`));
});
