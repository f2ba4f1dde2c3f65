// The number scanner must give exactly parseFloat's double for every decimal token: random
// round-trip doubles (16-17 digits, as String(x) and mmwrite write them), random 16-19 digit
// decimals, near-halfway decimals, and the classic edge cases; once directly and once through
// readMtx.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanEnd, scanNumber } from '../src/matrix/number-scan.js';
import { readMtx } from '../src/matrix/mtx-read.js';
import { rng } from '../src/stats.js'; // seeded mulberry32
import { scratchDir, writeText } from './mtx-helpers.js';

const dir = scratchDir('mtx-number-scan');

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** A random finite double with uniformly random bits (all exponents, subnormals included). */
function randomDouble(rnd: () => number): number {
  do {
    words[0] = Math.floor(rnd() * 4294967296);
    words[1] = Math.floor(rnd() * 4294967296);
  } while (!Number.isFinite(bits[0]));
  return bits[0];
}

const digitString = (rnd: () => number, n: number) => {
  let s = String(1 + Math.floor(rnd() * 9));
  while (s.length < n) s += String(Math.floor(rnd() * 10));
  return s;
};

/** Significant digits and decimal exponent of the exact midpoint between x > 0 and its successor. */
function midpointDigits(x: number): { digits: string; exp: number } {
  bits[0] = x;
  const e = (words[1] >>> 20) & 0x7ff;
  const m = (BigInt(words[1] & 0xfffff) << 32n) | BigInt(words[0]);
  const mant = e === 0 ? m : m | (1n << 52n);
  const twoExp = (e === 0 ? 1 : e) - 1075 - 1; // midpoint = (2·mant + 1) · 2^twoExp
  const odd = 2n * mant + 1n;
  if (twoExp >= 0) return { digits: (odd << BigInt(twoExp)).toString(), exp: 0 };
  return { digits: (odd * 5n ** BigInt(-twoExp)).toString(), exp: twoExp };
}

/** Writes `digits`·10^exp as d.ddd…e±N with the given significant digits (truncated). */
function sci(digits: string, exp: number, n: number): string {
  const d = digits.slice(0, n);
  const e = exp + digits.length - 1;
  return `${d[0]}.${d.slice(1)}e${e}`;
}

function cases(): string[] {
  const rnd = rng(20261122);
  const out: string[] = [
    '0', '-0', '0.0', '-0.0', '+0', '0e0', '-0e-5', '1e-320', '-1e-320', '4.9e-324', '5e-324', '2.4703282292062327e-324',
    '2.4703282292062328e-324', '1.7976931348623157e308', '1.7976931348623158e308', '1.7976931348623159e308',
    '2.2250738585072014e-308', '2.2250738585072011e-308', '2.2250738585072012e-308', '9007199254740993',
    '9007199254740992', '9007199254740994', '9007199254740995', '18014398509481985', '1e23', '8.589973e9',
    '1e+23', '1e-023', '1E+0022', '1.5e+000', '-1.2345678901234567e-000007', '123456789012345678',
    '1234567890123456789', '12345678901234567890', '0.1', '0.30000000000000004', '0.000123456789012345678',
    '1e308', '1e309', '1e-400', '179769313486231570000e288', '100000000000000000000000e-1',
    '7.2057594037927933e16', '4.35679936e-324', '2.2250738585072013e-308', '3.0540412816717e-310',
  ];
  for (let i = 0; i < 120000; i++) {
    const x = (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 40 - 20);
    out.push(String(x), x.toExponential(16), x.toPrecision(16));
  }
  for (let i = 0; i < 40000; i++) out.push(String(randomDouble(rnd)));
  for (let i = 0; i < 40000; i++) {
    // random 16-19 digit decimals with the point anywhere, plain or with an exponent
    const n = 16 + Math.floor(rnd() * 4);
    const s = digitString(rnd, n);
    const at = Math.floor(rnd() * (n + 1));
    const plain = `${s.slice(0, at)}.${s.slice(at)}`;
    out.push(rnd() < 0.5 ? `-${plain}` : plain, `${s}e${Math.floor(rnd() * 660) - 340}`);
  }
  for (let i = 0; i < 20000; i++) {
    // just below, at (truncated) and just above the midpoint between two doubles
    const x = i % 4 === 0 ? randomDouble(rnd) : rnd() * 10 ** Math.floor(rnd() * 40 - 20);
    if (!(x > 0)) continue;
    const { digits, exp } = midpointDigits(Math.abs(x));
    for (const n of [17, 18, 19]) {
      if (digits.length <= n) {
        out.push(`${digits}e${exp}`);
        continue;
      }
      const below = sci(digits, exp, n);
      out.push(below);
      const up = (BigInt(digits.slice(0, n)) + 1n).toString();
      out.push(sci(up, exp + digits.length - n - (up.length - n), up.length));
    }
  }
  for (let i = 0; i < 5000; i++) {
    // exact halfway integers with at most 19 digits: round half to even
    const m = 2 ** 53 + 1 + 2 * Math.floor(rnd() * 2 ** 51);
    out.push((BigInt(m) << BigInt(Math.floor(rnd() * 11))).toString());
  }
  return out;
}

test('scanNumber gives parseFloat\'s double for 500,000+ decimal tokens', () => {
  const tokens = cases();
  assert.ok(tokens.length > 500000, String(tokens.length));
  const buf = Buffer.from(tokens.join('\n') + '\n', 'latin1');
  let p = 0;
  let bad = 0;
  const firstBad: string[] = [];
  for (const t of tokens) {
    const v = scanNumber(buf, p);
    assert.equal(scanEnd, p + t.length, `scanEnd for "${t}"`);
    if (!Object.is(v, parseFloat(t))) {
      bad++;
      if (firstBad.length < 10) firstBad.push(`${t} -> ${v}, parseFloat ${parseFloat(t)}`);
    }
    p = scanEnd + 1;
  }
  assert.equal(bad, 0, firstBad.join('\n'));
});

test('tokens without digits are rejected', () => {
  for (const t of ['-', '+', '.', '-.', '+.', '1e', '1e+', '--1', '1.2.3']) {
    scanNumber(Buffer.from(`${t} `, 'latin1'), 0);
    assert.equal(scanEnd, -1, t);
  }
});

test('readMtx reads long and edge-case values exactly as parseFloat', async () => {
  const rnd = rng(7);
  const tokens = ['0', '-0', '1e-320', '1.7976931348623157e308', '2.2250738585072014e-308', '9007199254740993', '1e23', '1e+023', '-4.5E-0007'];
  for (let i = 0; i < 20000; i++) {
    const x = (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 6 - 3);
    tokens.push(i % 2 ? String(x) : x.toExponential(16));
  }
  const body = tokens.map((t, i) => `${i + 1} 1 ${t}`).join('\n');
  const path = writeText(dir, 'long.mtx', `%%MatrixMarket matrix coordinate real general\n${tokens.length} 1 ${tokens.length}\n${body}\n`);
  const { matrix } = await readMtx(path, { threads: 1 });
  assert.equal(matrix.values.length, tokens.length);
  tokens.forEach((t, i) => assert.ok(Object.is(matrix.values[i], parseFloat(t)), `row ${i + 1}: "${t}" read as ${matrix.values[i]}`));
});
