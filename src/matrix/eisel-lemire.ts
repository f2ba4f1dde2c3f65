// Eisel–Lemire decimal-to-double conversion (Lemire, "Number Parsing at a Gigabyte per Second"):
// w * 10^q for a 64-bit decimal significand w, with one 64×64→128-bit multiplication by a
// truncated power of five. JavaScript has no 64-bit integers outside BigInt, so w arrives as two
// 32-bit halves and the product is built from 32×16-bit partial products, which doubles hold
// exactly. Whenever the truncated product cannot decide the rounding (a possible carry from the
// dropped bits, an exact halfway case, subnormal or overflowing results) this returns NaN and the
// caller takes its exact slow path, so the result is always the correctly rounded double.

const Q_MIN = -342;
const Q_MAX = 308;
const TWO32 = 4294967296;
const INV32 = 1 / TWO32;
const INV16 = 1 / 65536;

/** Per q: the top 64 bits of floor(5^q · 2^s) ∈ [2^127, 2^128) as four 16-bit limbs, high first. */
const LIMBS = new Float64Array((Q_MAX - Q_MIN + 1) * 4);
/** Per q: the biased binary exponent of the result before the normalisation shifts (see below). */
const EXP = new Int32Array(Q_MAX - Q_MIN + 1);
/** POW2[e] = 2^(e - 1075): scales a 53-bit integer mantissa to the double with biased exponent e. */
const POW2 = new Float64Array(2048);

(function buildTables() {
  // BigInt only here, once at module load
  const bitLength = (x: bigint) => x.toString(2).length;
  for (let q = Q_MIN; q <= Q_MAX; q++) {
    let t: bigint;
    let s: number; // t = floor(5^q · 2^s)
    if (q >= 0) {
      const p = 5n ** BigInt(q);
      s = 128 - bitLength(p);
      t = s >= 0 ? p << BigInt(s) : p >> BigInt(-s);
    } else {
      const p = 5n ** BigInt(-q);
      s = 127 + bitLength(p);
      t = (1n << BigInt(s)) / p;
    }
    const hi = t >> 64n;
    const i = (q - Q_MIN) * 4;
    for (let k = 0; k < 4; k++) LIMBS[i + k] = Number((hi >> BigInt(48 - 16 * k)) & 0xffffn);
    // value = m · 2^(shift + 1 + 128 - s - lz + q) with shift = 9 + upperbit (see eiselLemire);
    // as a biased exponent for POW2: that power + 1075
    EXP[q - Q_MIN] = 10 + 128 - s + q + 1075;
  }
  let p = Number.MIN_VALUE; // 2^-1074, exact; doubling stays exact up to 2^972
  for (let e = 1; e < 2048; e++, p *= 2) POW2[e] = p;
})();

/**
 * The correctly rounded double nearest w · 10^q, where w = hi · 2^32 + lo (both unsigned 32-bit
 * integers, w > 0), or NaN when this fast method cannot be sure (the caller must then use an
 * exact method).
 */
export function eiselLemire(hi: number, lo: number, q: number): number {
  if (q < Q_MIN || q > Q_MAX) return NaN;
  // normalise w so that its top bit is set
  let lz: number;
  if (hi !== 0) {
    lz = Math.clz32(hi);
    if (lz !== 0) {
      hi = ((hi << lz) | (lo >>> (32 - lz))) >>> 0;
      lo = (lo << lz) >>> 0;
    }
  } else {
    if (lo === 0) return NaN;
    lz = 32 + Math.clz32(lo);
    hi = (lo << (lz - 32)) >>> 0;
    lo = 0;
  }
  const i = (q - Q_MIN) * 4;
  const b3 = LIMBS[i], b2 = LIMBS[i + 1], b1 = LIMBS[i + 2], b0 = LIMBS[i + 3];
  // w · T as columns at 16-bit offsets (each < 2^50, exact), then 32-bit words r3 r2 r1 r0
  const c0 = lo * b0;
  const c1 = lo * b1;
  const c2 = lo * b2 + hi * b0;
  const c3 = lo * b3 + hi * b1;
  const c4 = hi * b2;
  const c5 = hi * b3;
  const c1h = Math.floor(c1 * INV16), c3h = Math.floor(c3 * INV16), c5h = Math.floor(c5 * INV16);
  let s = c0 + (c1 - c1h * 65536) * 65536;
  let k = Math.floor(s * INV32);
  const r0 = s - k * TWO32;
  s = c2 + c1h + (c3 - c3h * 65536) * 65536 + k;
  k = Math.floor(s * INV32);
  const r1 = s - k * TWO32;
  s = c4 + c3h + (c5 - c5h * 65536) * 65536 + k;
  k = Math.floor(s * INV32);
  const r2 = s - k * TWO32;
  const r3 = c5h + k;
  // The dropped part of T (and of 5^q) is less than w units of the low word, so the true high
  // word is r3:r2 or one more. One more only matters when the low 9 bits are all ones: give up.
  if ((r2 & 0x1ff) === 0x1ff) return NaN;
  // the high word has 63 + upper significant bits: keep 53 and a round bit, drop `shift`
  const upper = r3 >= 2147483648 ? 1 : 0;
  const shift = 9 + upper;
  // exactly halfway between two doubles (round bit set, nothing below): ties need the exact value
  if ((r2 & ((2 << shift) - 1)) === 1 << shift && r1 === 0 && r0 === 0) return NaN;
  const e = EXP[q - Q_MIN] + upper - lz;
  if (e <= 0 || e >= 2047) return NaN; // subnormal or overflow: leave to the exact path
  const top = r3 * (upper ? 2097152 : 4194304) + (r2 >>> (shift + 1)); // 53 bits
  return (top + ((r2 >>> shift) & 1)) * POW2[e];
}
