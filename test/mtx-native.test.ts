// The native Matrix Market fast path, both front ends (the in-process Node-API addon and spbench-cpu
// mtx2spb): the same matrix as the TypeScript reader on every valid variant, and on anything unusual
// a fallback that gives the TypeScript reader's exact error (one grammar, same line numbers). Uses the
// user's cached spbench-cpu and addon. Where the addon cannot be built (no Node headers) the default
// path is mtx2spb, and these tests check that instead.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ensureExecutable } from '../src/native/executables.js';
import { readMtx } from '../src/matrix/mtx-read.js';
import { nativeParseEnabled } from '../src/config.js';
import { convertMtxNative, readMtxNative } from '../src/matrix/mtx-native.js';
import { plain } from './mtx-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spbench-mtx-native-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const exe = await ensureExecutable('cpu');
// the default native path: the addon where it builds (CI: g++ and Node's headers), else mtx2spb
const addonBuilt = await ensureExecutable('mtx-addon').then(
  () => true,
  () => false,
);
const defaultVia = addonBuilt ? 'addon' : 'mtx2spb';
/** fn with $SPBENCH_MTX_ADDON=0 (the addon not used: mtx2spb instead) */
async function withoutAddon<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.env.SPBENCH_MTX_ADDON;
  process.env.SPBENCH_MTX_ADDON = '0';
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.SPBENCH_MTX_ADDON;
    else process.env.SPBENCH_MTX_ADDON = before;
  }
}
let n = 0;
const file = (text: string) => {
  const p = join(dir, `m${n++}.mtx`);
  writeFileSync(p, text);
  return p;
};
const js = (p: string) => readMtx(p, { threads: 1, nativeMinBytes: Infinity });

const valid: [string, string][] = [
  ['general, unsorted, duplicates summed, CRLF, comments and blank lines, no final newline',
    '%%MatrixMarket matrix coordinate real general\n% c\n3 4 6\n3 3 1\n1 2 2\r\n1 2 5\n  % indented comment\n\n2 1 -3\n1 4 +7.25\n3 1 1e-300'],
  ['symmetric (expanded, diagonal once)', '%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n1 1 1\n3 1 2.5\n2 2 -3\n4 3 1E2\n4 1 .5\n'],
  ['skew-symmetric', '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 2 -2\n'],
  ['hermitian (real)', '%%MatrixMarket matrix coordinate real hermitian\n2 2 2\n2 1 4\n1 1 3\n'],
  ['pattern', '%%MatrixMarket matrix coordinate pattern general\n3 3 3\n3 3\n1 2\n1 2\n'],
  ['integer', '%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 -12\n2 2 +3\n'],
  ['full precision values and tabs', '%%MatrixMarket matrix coordinate real general\n2 2 3\n1\t1\t0.30000000000000004\n2 1 -1.2345678901234567e-5\n2 2 9007199254740993\n'],
];

test('the addon builds wherever g++ and Node\'s headers are (then it is the default native path)', async () => {
  const { findGxx, findNodeInclude } = await import('../src/native/toolchain.js');
  if (findGxx() !== null && findNodeInclude() !== null) assert.equal(addonBuilt, true);
});

test('the native path is on unless SPBENCH_NATIVE_PARSE=0', () => {
  assert.equal(nativeParseEnabled({}), true);
  assert.equal(nativeParseEnabled({ SPBENCH_NATIVE_PARSE: '0' }), false);
});

for (const [name, text] of valid) {
  test(`native = TypeScript: ${name}`, async () => {
    const p = file(text);
    const ref = await js(p);
    const runs = { mtx2spb: await readMtxNative(p, { exe }), default: await readMtxNative(p), 'SPBENCH_MTX_ADDON=0': await withoutAddon(() => readMtxNative(p)) };
    for (const [how, native] of Object.entries(runs)) {
      assert.ok(native, `${how}: the native path took the file`);
      assert.equal(native.via, how === 'default' ? defaultVia : 'mtx2spb', how);
      assert.deepEqual(plain(native.matrix), plain(ref.matrix), how);
      assert.deepEqual(native.header, ref.header, how);
    }
  });
}

test('native = TypeScript on a random 300k-entry file (unsorted, duplicates, symmetric), with 1, 2 and 3 threads', async () => {
  let x = 12345;
  const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const lines: string[] = [];
  for (let k = 0; k < 300_000; k++) {
    const i = 1 + Math.floor(rnd() * 5000);
    const j = 1 + Math.floor(rnd() * i);
    lines.push(`${i} ${j} ${String((rnd() - 0.5) * 10 ** Math.floor(rnd() * 8 - 4))}`);
  }
  const p = file(`%%MatrixMarket matrix coordinate real symmetric\n5000 5000 ${lines.length}\n${lines.join('\n')}\n`);
  const ref = plain((await js(p)).matrix);
  for (const threads of [1, 2, 3]) {
    for (const native of [await readMtxNative(p, { exe, threads }), await readMtxNative(p, { threads })]) {
      assert.ok(native);
      assert.deepEqual(plain(native.matrix), ref, `${native.via}, ${threads} threads`);
    }
  }
  // through readMtx: the native path is taken from nativeMinBytes on
  assert.deepEqual(plain((await readMtx(p, { nativeMinBytes: 0 })).matrix), ref);
});

const malformed: string[] = [
  '%%MatrixMarket matrix coordinate real general\n3 3 2\n2 1 1x\n3 2 -2\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 3\n2 1 1\n3 2 -2\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n2 1 1\n3 2 -2\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n1 0 1\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1e\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 +-1\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1 7\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n1.5 1 1\n',
  '%%MatrixMarket matrix coordinate real general\n3 3 1\n99999999999999 1 1\n',
  '%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n',
  '%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n',
  '%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 3 1\n',
  '%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 5\n',
  '%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\ntrailing garbage\n',
];

test('malformed files: the native path declines, and readMtx gives the TypeScript error with its line', async () => {
  for (const text of malformed) {
    const p = file(text);
    assert.equal(await readMtxNative(p, { exe }), undefined, text);
    assert.equal(await readMtxNative(p), undefined, text);
    const expected = await js(p).then(
      () => assert.fail(`the TypeScript reader accepts ${JSON.stringify(text)}`),
      (e: Error) => e.message,
    );
    await assert.rejects(readMtx(p, { nativeMinBytes: 0 }), (e: Error) => e.message === expected);
  }
  // inf/nan are valid but left to the TypeScript reader
  const inf = file('%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 inf\n2 2 -NaN\n');
  assert.equal(await readMtxNative(inf, { exe }), undefined);
  assert.equal(await readMtxNative(inf), undefined);
  const m = (await readMtx(inf, { nativeMinBytes: 0 })).matrix;
  assert.equal(m.values[0], Infinity);
  assert.ok(Number.isNaN(m.values[1]));
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('an unavailable executable falls back to the TypeScript reader', async () => {
  const p = file(valid[0][1]);
  assert.equal(await readMtxNative(p, { exe: join(dir, 'no-such-exe') }), undefined);
});

// Tokens at the edges of the fast paths (native Clinger path, from_chars; TypeScript scanNumber):
// each value must be exactly Number(token), the sign of zero included.
const edgeTokens = [
  '1e-310', '-1e-310', '4.9e-324', '2.2250738585072011e-308', '1.7976931348623157e308', '0.1', '0.10000000000000000555111512312578270211815834045410156250001',
  '0.1000000000000000055511151231257827', '-0', '-0.0', '+0', '0e400', '-0e-400', '1E+5', '1e+5', '1E5', '.5', '-.5', '+.5', '5.', '-5.',
  '1e22', '1e23', '1e-22', '3e-0022', '9007199254740993', '123456789012345', '1234567890123456', '123456789012345.6',
  '0.000000000000000000000001', '00012.5000', '1.' + '0'.repeat(30), '999999999999999', '0.999999999999999', '-2.5E-3', '+1.25',
  '1e0', '7e-23', '123456789012345e-7', '0.30000000000000004', '-1.2345678901234567e-5', '8.98846567431158e307',
];

test('edge-case values are exactly Number(token) through the native path and both TypeScript readers', async () => {
  const lines = edgeTokens.map((t, k) => `${k + 1} 1 ${t}`);
  const p = file(`%%MatrixMarket matrix coordinate real general\n${edgeTokens.length} 1 ${edgeTokens.length}\n${lines.join('\n')}\n`);
  const native = await readMtxNative(p, { exe });
  const inProcess = await readMtxNative(p);
  assert.ok(native && inProcess, 'the native path took the file');
  assert.equal(inProcess.via, defaultVia);
  const readers = {
    mtx2spb: native.matrix,
    [defaultVia]: inProcess.matrix,
    'TS serial': (await js(p)).matrix,
    'TS serial, 7-byte chunks': (await readMtx(p, { threads: 1, nativeMinBytes: Infinity, chunkSize: 7 })).matrix,
  };
  for (const [name, m] of Object.entries(readers)) {
    assert.deepEqual(Array.from(m.rowPtr), edgeTokens.map((_, k) => k).concat(edgeTokens.length), name);
    edgeTokens.forEach((t, k) => assert.ok(Object.is(m.values[k], Number(t)), `${name}: ${t} -> ${m.values[k]}, Number() gives ${Number(t)}`));
  }
});

test('integer field: the native path takes plain integers and declines fractions and exponents', async () => {
  const ok = file('%%MatrixMarket matrix coordinate integer general\n3 1 3\n1 1 -0\n2 1 +123456789012345678\n3 1 0042\n');
  for (const native of [await readMtxNative(ok, { exe }), await readMtxNative(ok)]) {
    assert.ok(native);
    assert.deepEqual(plain(native.matrix), plain((await js(ok)).matrix), native.via);
  }
  for (const v of ['5.', '1e3', '.5', '1E+0']) {
    const p = file(`%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 ${v}\n`);
    assert.equal(await readMtxNative(p, { exe }), undefined, v);
    assert.equal(await readMtxNative(p), undefined, v);
    await assert.rejects(readMtx(p, { nativeMinBytes: 0 }), /integer field expects an integer value/);
  }
});

test('convert .mtx → .spb in the process (addon) and by mtx2spb: the same bytes; bad input leaves nothing written', async () => {
  const p = file(valid[0][1]);
  const a = join(dir, 'conv-default.spb'), b = join(dir, 'conv-mtx2spb.spb');
  const sa = await convertMtxNative(p, a, 4, { minBytes: 0 });
  const sb = await withoutAddon(() => convertMtxNative(p, b, 4, { minBytes: 0 }));
  assert.deepEqual(sa, { rows: 3, cols: 4, nnz: 5 });
  assert.deepEqual(sb, sa);
  assert.deepEqual(readFileSync(a), readFileSync(b));
  const bad = file(malformed[0]);
  const out = join(dir, 'conv-bad.spb');
  writeFileSync(out, 'older');
  assert.equal(await convertMtxNative(bad, out, 4, { minBytes: 0 }), undefined);
  assert.equal(readFileSync(out, 'utf8'), 'older');
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});
