// The part of jstat (https://github.com/jstat/jstat, no types of its own) that src/stats.ts uses.
declare module 'jstat' {
  interface Distribution1 {
    cdf(x: number, a: number): number;
    inv(p: number, a: number): number;
  }
  interface Normal {
    cdf(x: number, mean: number, std: number): number;
  }
  const jstat: { jStat: { studentt: Distribution1; normal: Normal } };
  export default jstat;
}
