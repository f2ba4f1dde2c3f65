// What the benchmark runners need from other modules (matrices, generators, native runner), as one
// object so tests can substitute doubles. `realDeps()` wires the real implementations.
import type { EnvLine, NativeLine } from '../native/protocol.js';
import type { CsrMatrix } from '../matrix/types.js';
import type { BatchOptions } from '../matrix/generate/batch.js';
import type { Backend, BackendChoice, Op } from '../kinds.js';

export interface Range {
  min: number;
  max: number;
}

export type NativeTarget = 'cpu' | 'probe' | 'spmm-cuda' | 'spgemm-cuda';

export interface BenchDeps {
  chooseBackend(requested: BackendChoice, op: Op): Promise<{ backend: Backend; reason: string }>;
  ensureExecutable(target: NativeTarget, opts: { rebuild?: boolean; log?: (s: string) => void }): Promise<string>;
  runNative(exePath: string, args: string[], opts: { onLine?: (l: NativeLine) => void; timeoutMs?: number }): Promise<NativeLine[]>;
  /** builds a --kernel plugin (src/plugins/build.ts when absent); returns its runner executable */
  buildPlugin?(file: string, manifest: import('../plugins/manifest.js').PluginManifest, log: (s: string) => void): Promise<string>;
  parseRange(text: string, what: string): Range;
  generateBatch(opts: BatchOptions): CsrMatrix[];
  /** spbench-probe's env line (every GPU), or null: each GPU's memory, and the device of a run whose methods are all
   * Python ones (optional: tests omit it) */
  probeEnv?(): Promise<EnvLine | null>;
  /** checks a generator spec; throws a UserError naming what is wrong */
  parseGenSpec(text: string): unknown;
  generateMatrix(specText: string, seed: number): CsrMatrix;
  loadMatrix(path: string): Promise<CsrMatrix>;
  loadBatch(pathOrDir: string): Promise<{ matrices: CsrMatrix[]; names: string[] }>;
  writeSpb(path: string, mats: CsrMatrix[], opts: { valueType: 'f32' | 'f64'; indexWidth?: 4 | 8 }): Promise<void>;
}

export async function realDeps(): Promise<BenchDeps> {
  const gen = await import('../matrix/generate/index.js');
  const native = await import('../native/index.js');
  const load = await import('../matrix/load.js');
  const binary = await import('../matrix/binary.js');
  return {
    chooseBackend: native.chooseBackend,
    ensureExecutable: native.ensureExecutable,
    runNative: native.runNative,
    parseRange: gen.parseRange,
    generateBatch: gen.generateBatch,
    parseGenSpec: gen.parseGenSpec,
    generateMatrix: (text, seed) => gen.generateMatrix(gen.parseGenSpec(text), seed),
    loadMatrix: (p) => load.loadMatrix(p),
    loadBatch: (p) => load.loadBatch(p),
    writeSpb: binary.writeSpb,
    probeEnv: native.probeDevices,
  };
}
