// Byte-level number scanning for the text readers. Decimal numbers are parsed straight from the
// bytes; the result is always the double that Number()/parseFloat would give for the same token:
// the fast path is taken only where one IEEE multiplication or division of two exactly
// representable values gives the correctly rounded result (Clinger's fast path), and every other
// token is handed to Number().

import { eiselLemire } from './eisel-lemire.js';

const POW10: number[] = [];
const TWO_M32 = 1 / 4294967296;
for (let i = 0, p = 1; i <= 22; i++, p *= 10) POW10.push(p);

/** End of the last scanned token; -1 when the bytes at the start position were not a number. */
export let scanEnd = 0;
/** True when the last scanned token had a fraction or exponent (not a plain integer). */
export let scanHadFraction = false;

function isDelimiter(c: number): boolean {
  // space, tab, CR, LF, or past the end of the buffer (undefined → NaN comparisons)
  return c === 32 || c === 9 || c === 13 || c === 10 || c !== c || c === undefined;
}

/**
 * Scans a decimal number (optionally inf/infinity/nan, any case) that starts at `p` and must be
 * followed by a delimiter. Returns its value and sets `scanEnd`; `scanEnd = -1` on bad syntax.
 */
export function scanNumber(buf: Uint8Array, p: number): number {
  // Fast path kept small so that it inlines into the callers' loops: sign, up to 15 significant
  // digits with an optional fraction, then a delimiter. Anything else goes to scanSlow.
  const start = p;
  let c = buf[p];
  const neg = c === 45;
  if (neg || c === 43) c = buf[++p];
  let w = 0;
  let lo = 0; // w mod 2^32, exact (w itself is exact only below 2^53)
  let nd = 0;
  let d = c - 48;
  const intStart = p;
  while (d >= 0 && d <= 9) {
    w = w * 10 + d;
    lo = (Math.imul(lo, 10) + d) | 0;
    c = buf[++p];
    d = c - 48;
  }
  nd = p - intStart;
  let frac = 0;
  if (c === 46) {
    const fracStart = ++p;
    c = buf[p];
    d = c - 48;
    while (d >= 0 && d <= 9) {
      w = w * 10 + d;
      lo = (Math.imul(lo, 10) + d) | 0;
      c = buf[++p];
      d = c - 48;
    }
    frac = p - fracStart;
    nd += frac;
  }
  // nd counts leading zeros too, so nd <= 15 guarantees w < 10^15 (exact); frac <= 22 keeps
  // the power of ten exact. Then one division rounds correctly.
  if (nd > 0 && nd <= 15 && frac <= 22 && (c === 32 || c === 10 || c === 13 || c === 9)) {
    scanHadFraction = frac > 0 || buf[p - 1] === 46;
    scanEnd = p;
    const v = frac === 0 ? w : w / POW10[frac];
    return neg ? -v : v;
  }
  return scanLong(buf, start, intStart, p, w, lo, frac);
}

/**
 * The fast path's leftovers: `w` (rounded) and `lo` (its exact low 32 bits) hold the digits
 * between `intStart` and `p`, `frac` of them after the '.'. Long plain decimals (shortest
 * round-trip output has 16-17 digits) go through Eisel–Lemire; the rest to scanSlow.
 */
function scanLong(buf: Uint8Array, start: number, intStart: number, p: number, w: number, lo: number, frac: number): number {
  const c = buf[p];
  const dot = frac > 0 || buf[p - 1] === 46;
  // no digits at all ("-", "."): scanSlow reports the bad token
  if (!(c === 32 || c === 10 || c === 13 || c === 9) || p - intStart === (dot ? 1 : 0)) return scanSlow(buf, start);
  const neg = buf[start] === 45;
  let v = NaN;
  if (w < 1e19 && w > 0) {
    // at most 19 significant digits: the rounding error of the double w is far below 2^31, so
    // w's high 32 bits follow exactly from w and lo
    const l = lo >>> 0;
    v = eiselLemire(Math.round((w - l) * TWO_M32), l, -frac);
  }
  // the rare undecided cases: split the digits into 15 + up to 4 without re-checking the
  // syntax, then twoStep
  if (v !== v && p - intStart <= 25 && frac <= 22) v = longDecimal(buf, intStart, p, frac);
  if (v !== v) return scanSlow(buf, start);
  scanHadFraction = dot;
  scanEnd = p;
  return neg ? -v : v;
}

/**
 * Digits between `from` and `to` (one '.' among them, `frac` digits after it) as a correctly
 * rounded double, or NaN to send the token to scanSlow. The mantissa keeps 19 significant digits
 * (w: 15, tail: k <= 4); digits past those must be zeros, each raising the exponent by one.
 */
function longDecimal(buf: Uint8Array, from: number, to: number, frac: number): number {
  let w = 0, tail = 0, k = 0, nd = 0, z = 0;
  for (let i = from; i < to; i++) {
    const d = buf[i] - 48;
    if (d < 0) continue; // the '.'
    if (nd < 15) {
      w = w * 10 + d;
      if (w !== 0) nd++;
    } else if (nd < 19) {
      tail = tail * 10 + d;
      k++;
      nd++;
    } else if (d === 0) z++;
    else return NaN;
  }
  const q = z - frac;
  if (q < -22 || q > 22) return NaN;
  if (k > 0) return twoStep(w, tail, k, q);
  return q >= 0 ? w * POW10[q] : w / POW10[-q];
}

/** Everything the fast path leaves: exponents, long mantissas, inf/nan, bad syntax. */
function scanSlow(buf: Uint8Array, p: number): number {
  const start = p;
  let c = buf[p];
  let neg = false;
  if (c === 45) {
    neg = true;
    c = buf[++p];
  } else if (c === 43) {
    c = buf[++p];
  }
  let w = 0; // first 15 significant digits (exact)
  let tail = 0; // the next k <= 4 digits: the mantissa is w * 10^k + tail
  let k = 0;
  let nd = 0;
  let e10 = 0;
  let exact = true;
  let digits = false;
  let d = c - 48;
  while (d >= 0 && d <= 9) {
    digits = true;
    if (nd < 15) {
      w = w * 10 + d;
      if (w !== 0) nd++;
    } else if (nd < 19) {
      tail = tail * 10 + d; // digits 16..19 (twoStep below)
      k++;
      nd++;
    } else if (d === 0) e10++; // zeros past 19 digits keep it exact
    else exact = false;
    c = buf[++p];
    d = c - 48;
  }
  scanHadFraction = false;
  if (c === 46) {
    scanHadFraction = true;
    c = buf[++p];
    d = c - 48;
    while (d >= 0 && d <= 9) {
      digits = true;
      if (nd < 15) {
        w = w * 10 + d;
        if (w !== 0) nd++;
        e10--;
      } else if (nd < 19) {
        tail = tail * 10 + d;
        k++;
        nd++;
        e10--;
      } else if (d !== 0) exact = false;
      c = buf[++p];
      d = c - 48;
    }
  }
  if (!digits) return scanWord(buf, start, neg ? start + 1 : p);
  if (c === 101 || c === 69) {
    scanHadFraction = true;
    c = buf[++p];
    let eneg = false;
    if (c === 45) {
      eneg = true;
      c = buf[++p];
    } else if (c === 43) {
      c = buf[++p];
    }
    d = c - 48;
    if (!(d >= 0 && d <= 9)) {
      scanEnd = -1;
      return NaN;
    }
    let ex = 0;
    while (d >= 0 && d <= 9) {
      if (ex < 100000) ex = ex * 10 + d;
      c = buf[++p];
      d = c - 48;
    }
    e10 += eneg ? -ex : ex;
  }
  if (!isDelimiter(c)) {
    scanEnd = -1;
    return NaN;
  }
  scanEnd = p;
  let v = NaN;
  if (!exact) v = NaN;
  else if (w === 0) v = 0;
  else if (k === 0 && e10 >= -22 && e10 <= 22) v = e10 >= 0 ? w * POW10[e10] : w / POW10[-e10];
  else {
    // the mantissa w · 10^k + tail < 10^19 as exact 32-bit halves, then Eisel–Lemire
    let hi = Math.floor(w * TWO_M32);
    let lo = w - hi * 4294967296;
    if (k > 0) {
      const m = POW10[k];
      lo = lo * m + tail;
      const carry = Math.floor(lo * TWO_M32);
      lo -= carry * 4294967296;
      hi = hi * m + carry;
    }
    v = eiselLemire(hi, lo, e10);
    if (v !== v && k > 0 && e10 >= -22 && e10 <= 22) v = twoStep(w, tail, k, e10);
  }
  if (v !== v) return Number(latin1(buf, start, p));
  return neg ? -v : v;
}

// Error-free products (Dekker): twoProd returns fl(a*b) and leaves the exact rounding error in
// tpErr, so that a*b = result + tpErr exactly (no FMA in JavaScript).
let tpErr = 0;
const SPLITTER = 134217729; // 2^27 + 1
function twoProd(a: number, b: number): number {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a), al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b), bl = b - bh;
  tpErr = ah * bh - p + ah * bl + al * bh + al * bl;
  return p;
}

const bits = new Float64Array(1);
const bitWords = new Uint32Array(bits.buffer);

/**
 * Correctly rounded (w * 10^k + tail) * 10^q for 16-19 digit mantissas, |q| <= 22: the mantissa
 * as an exact double-double (Wh + Wl), one rounded product or quotient x0, and the exact
 * remainder, which says on which side of the rounding midpoints the true value lies. When it is
 * within 2^-30 of a midpoint (or x0 is a power of two, where the spacing changes) this gives up
 * (NaN) and the caller uses Number(), so the result always equals parseFloat's.
 */
function twoStep(w: number, tail: number, k: number, q: number): number {
  const p1 = twoProd(w, POW10[k]);
  const e1 = tpErr;
  const wh = p1 + tail;
  const bb = wh - p1;
  const wl = p1 - (wh - bb) + (tail - bb) + e1;
  let x0: number, c: number;
  if (q >= 0) {
    const d = POW10[q];
    x0 = twoProd(wh, d);
    c = tpErr + wl * d;
  } else {
    const d = POW10[-q];
    x0 = wh / d;
    const p = twoProd(x0, d);
    c = (wh - p - tpErr + wl) / d;
  }
  bits[0] = x0;
  const hi = bitWords[1], lo = bitWords[0];
  const e = (hi >>> 20) & 0x7ff;
  if ((lo === 0 && (hi & 0xfffff) === 0) || e < 54 || e > 2000) return NaN;
  bitWords[1] = (e - 53) << 20; // half an ulp of x0 is 2^(e - 1076): built from bits (Math.pow is slow)
  bitWords[0] = 0;
  const h = bits[0];
  const t = Math.abs(c) / h; // rounding boundaries sit at odd multiples of h
  if (Math.abs(t - 1) < 1e-9 || Math.abs(t - 3) < 1e-9 || t >= 4) return NaN;
  return x0 + c;
}

/** inf, infinity, nan (any case), as several Matrix Market writers print them. */
function scanWord(buf: Uint8Array, start: number, p: number): number {
  let q = p;
  while (q < buf.length && !isDelimiter(buf[q])) q++;
  const word = latin1(buf, p, q).toLowerCase();
  const neg = buf[start] === 45;
  scanHadFraction = true;
  if (word === 'inf' || word === 'infinity') {
    scanEnd = q;
    return neg ? -Infinity : Infinity;
  }
  if (word === 'nan') {
    scanEnd = q;
    return NaN;
  }
  scanEnd = -1;
  return NaN;
}

export function latin1(buf: Uint8Array, start: number, end: number): string {
  // Buffer's own latin1Slice is the cheapest way to a short string (no view object, no checks)
  const b = buf as unknown as { latin1Slice?: (start: number, end: number) => string };
  if (typeof b.latin1Slice === 'function') return b.latin1Slice(start, end);
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1');
}

/** The token starting at `p` (up to the next delimiter), shortened for error messages. */
export function tokenAt(buf: Uint8Array, p: number): string {
  let q = p;
  while (q < buf.length && q - p < 40 && !isDelimiter(buf[q])) q++;
  return latin1(buf, p, q);
}
