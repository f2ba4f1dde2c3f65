// Our own seeded PRNG (xoshiro128**), built only from exact 32-bit integer operations (Math.imul,
// shifts, xor) so that the same seed yields the same numbers, and therefore the same matrix bytes,
// on every machine and Node version. Math.random and platform libraries are never used.
import { UserError } from '../../util/errors.js';

const TWO32 = 4294967296;

/** murmur3's 32-bit finalizer: a bijective avalanche mix of one 32-bit word. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** Four 32-bit state words, not all zero. */
  constructor(s0: number, s1: number, s2: number, s3: number) {
    this.s0 = s0 | 0;
    this.s1 = s1 | 0;
    this.s2 = s2 | 0;
    this.s3 = s3 | 0;
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Next unsigned 32-bit integer (xoshiro128**). */
  nextU32(): number {
    const s1 = this.s1;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /**
   * Uniform integer in [0, n), 1 <= n <= 2^32, unbiased by rejection: draws at or above the largest
   * multiple of n below 2^32 are redrawn. All arithmetic is on integers below 2^53, hence exact.
   */
  below(n: number): number {
    if (n <= 1) return 0;
    const limit = TWO32 - (TWO32 % n);
    for (;;) {
      const x = this.nextU32();
      if (x < limit) return x % n;
    }
  }

  /** Uniform integer in [min, max] (inclusive). */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  /**
   * Value in (-1, 1): (2k + 1 - 2^24) / 2^24 for a uniform 24-bit k. Odd numerators make it never
   * zero and symmetric around 0; 24 significant bits make every value exact in float32 as well as
   * float64, so f32 and f64 outputs of one seed hold the same numbers.
   */
  value(): number {
    const k = this.nextU32() >>> 8;
    return (2 * k + 1 - 16777216) / 16777216;
  }

  /** Uniform in [0, 1) on a grid of 2^-32 (one draw; exact, so the same on every machine). */
  unit(): number {
    return this.nextU32() / TWO32;
  }

  /** True with probability p (0 <= p <= 1), by an exact integer comparison of one 32-bit draw. */
  chance(p: number): boolean {
    return this.nextU32() < Math.round(p * TWO32);
  }
}

/**
 * A seeded pseudo-random permutation of [0, n) that costs no memory: a 4-round Feistel network over
 * the smallest even number of bits 2h with 2^(2h) >= n (fmix32 of the right half and a round key as
 * the round function), cycle-walking past values >= n (under 4 rounds of walking on average since
 * 2^(2h) < 4n). Integer operations only, so it is the same on every machine.
 */
export class KeyedPermutation {
  private readonly half: number;
  private readonly scale: number;
  private readonly mask: number;
  private readonly k0: number;
  private readonly k1: number;
  private readonly k2: number;
  private readonly k3: number;

  constructor(private readonly n: number, rng: Rng) {
    let half = 0;
    while (2 ** (2 * half) < n) half++;
    this.half = half;
    this.scale = 2 ** half;
    this.mask = this.scale - 1;
    this.k0 = rng.nextU32();
    this.k1 = rng.nextU32();
    this.k2 = rng.nextU32();
    this.k3 = rng.nextU32();
  }

  /** The image of x in [0, n). */
  at(x: number): number {
    const { half, mask, n } = this;
    if (half === 0) return 0;
    do {
      // x < 2^(2h) <= 2^32, so x >>> half is its high half
      let l = x >>> half;
      let r = x & mask;
      l ^= fmix32(r ^ this.k0) & mask;
      r ^= fmix32(l ^ this.k1) & mask;
      l ^= fmix32(r ^ this.k2) & mask;
      r ^= fmix32(l ^ this.k3) & mask;
      x = l * this.scale + r;
    } while (x >= n);
    return x;
  }
}

/** `count` values from rng.value(): the values of a generated matrix, drawn after its pattern. */
export function randomValues(rng: Rng, count: number): Float64Array {
  const v = new Float64Array(count);
  for (let e = 0; e < count; e++) v[e] = rng.value();
  return v;
}

/** Largest accepted seed: seeds are integers that doubles hold exactly. */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/**
 * The generator of stream `stream` for `seed`. Streams of one seed are independent, so matrix i of
 * a batch (stream i) does not depend on how many matrices were generated before it.
 */
export function rngFor(seed: number, stream: number): Rng {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UserError(`seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  if (!Number.isInteger(stream) || stream < 0 || stream >= TWO32) throw new RangeError(`stream ${stream} out of range`);
  const lo = seed % TWO32;
  const hi = Math.floor(seed / TWO32);
  // Absorb (lo, hi, stream) into a running hash; each state word is one more mixing round, with a
  // distinct odd constant so the four words differ even for seed 0, stream 0.
  let h = fmix32(lo ^ 0x9e3779b9);
  h = fmix32((h ^ hi) + 0x7f4a7c15);
  h = fmix32((h ^ stream) + 0x3c6ef372);
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    h = fmix32((h + Math.imul(i + 1, 0x6a09e667)) >>> 0);
    words.push(h);
  }
  return new Rng(words[0], words[1], words[2], words[3]);
}

/** Parses a --seed argument. */
export function parseSeed(text: string): number {
  const t = text.trim();
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t))) {
    throw new UserError(`--seed must be an integer from 0 to ${MAX_SEED}, got "${text}"`);
  }
  return Number(t);
}
