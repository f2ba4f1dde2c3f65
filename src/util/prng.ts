// Seeded PRNG with no dependencies: scripts/gpu-test.mjs imports it on the GPU machine, where only the bundle is
// present (no node_modules), so it must not sit in a module that imports a package.

/** mulberry32: small, fast, seeded PRNG so that confidence intervals and test inputs are reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
