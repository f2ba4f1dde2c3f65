// The two hooks spmm-run.ts and spgemm-run.ts call: prepare the --kernel plugins once per request
// (manifests read, built on the CUDA backend), then, per native run of the built-in methods, the
// plugins' result lines for the same input (run in their own processes, or not applicable with the reason).
import type { CsrMatrix } from '../matrix/types.js';
import type { Precision, SpgemmPrecision } from '../kinds.js';
import type { ResultLine } from '../native/protocol.js';
import type { RepeatedLine } from '../bench/repeat.js';
import type { BenchDeps } from '../bench/deps.js';
import { EnvironmentError } from '../util/errors.js';
import { spgemmNotApplicable, spmmNotApplicable } from './applicability.js';
import { buildPlugin } from './build.js';
import { isPythonPlugin, spmmMethods, type PluginManifest } from './manifest.js';
import { caseTemplates, pythonResults } from './python.js';
import { preparePlugins, runPluginRepeated, userLine, type Expected, type PreparedPlugin } from './run.js';

export type { PreparedPlugin };

async function probeArch(): Promise<string> {
  const { probeDevices } = await import('../native/backend.js');
  const dev = (await probeDevices())?.devices[0];
  if (!dev) throw new EnvironmentError('no usable CUDA GPU was found, so --kernel plugins cannot be built for it: set SPBENCH_CUDA_ARCH (e.g. 90) or check the driver (nvidia-smi).');
  return dev.cc;
}

const realBuild = (file: string, manifest: PluginManifest, log: (s: string) => void) => buildPlugin(file, manifest, { log, probeArch });

export function prepareUserKernels(files: string[] | undefined, op: 'spmm' | 'spgemm', backend: 'cpu' | 'cuda', d: BenchDeps, log: (s: string) => void): Promise<PreparedPlugin[]> {
  return preparePlugins(files, op, backend, d.buildPlugin ?? realBuild, log);
}

/** Matrices of the batch differ in rows, columns or nnz. */
export function isMixed(mats: CsrMatrix[]): boolean {
  return mats.some((m) => m.rows !== mats[0].rows || m.cols !== mats[0].cols || m.rowPtr[m.rows] !== mats[0].rowPtr[mats[0].rows]);
}

/** The first built-in line of each n_B: the shape of the case's synthesized lines. */
function templatesByNb(builtins: ResultLine[]): Map<unknown, ResultLine> {
  const t = new Map<unknown, ResultLine>();
  for (const l of builtins) if (!t.has(l.params.nb)) t.set(l.params.nb, l);
  return t;
}

export interface SpmmRunContext {
  backend: 'cpu' | 'cuda';
  backendReason: string;
  args: string[]; // the built-in run's native arguments (input, nb, precision, mode, layout, seed, sampling)
  precision: Precision;
  layout: 'row' | 'col';
  mode: 'kernel' | 'e2e' | 'graph';
  mats: CsrMatrix[];
  repeat: number;
}

export async function spmmUserResults(plugins: PreparedPlugin[], c: SpmmRunContext, builtins: ResultLine[], d: BenchDeps): Promise<RepeatedLine[]> {
  // no built-in line where --methods named only framework peers: lines shaped as the Python runner's
  const templates = builtins.length ? [...templatesByNb(builtins).values()] : caseTemplates(c);
  const out: RepeatedLine[] = [];
  for (const p of plugins) {
    if (p.manifest.op !== 'spmm') continue;
    const methods = spmmMethods(p.manifest);
    if (isPythonPlugin(p.file)) {
      const na = c.backend === 'cuda' ? spmmNotApplicable(p.manifest, { backend: c.backend, precision: c.precision, layout: c.layout, mode: c.mode, mixed: isMixed(c.mats) }) : null;
      out.push(...(await pythonResults([p.manifest.name], c, d.runNative, { file: p.file, na })));
      continue;
    }
    const expected: Expected[] = templates.flatMap((template) => methods.map((m) => ({ method: m.method, template })));
    const na = spmmNotApplicable(p.manifest, { backend: c.backend, precision: c.precision, layout: c.layout, mode: c.mode, mixed: isMixed(c.mats) }, c.backend === 'cpu' ? c.backendReason : undefined);
    if (na || !p.exe) {
      out.push(...expected.map((e) => userLine(e.template, e.method, p.file, 'not_applicable', na ?? 'the plugin was not built')));
      continue;
    }
    const args = [...c.args, '--formats', methods.map((m) => m.format).join(','), '--names', methods.map((m) => m.method).join(',')];
    out.push(...(await runPluginRepeated(p.exe, args, p.file, expected, c.repeat, { run: d.runNative })));
  }
  return out;
}

export interface SpgemmRunContext {
  backend: 'cpu' | 'cuda';
  backendReason: string;
  args: string[]; // the built-in run's native arguments (operands, precision, sampling, reference)
  precision: SpgemmPrecision;
  repeat: number;
}

export async function spgemmUserResults(plugins: PreparedPlugin[], c: SpgemmRunContext, builtins: ResultLine[], d: BenchDeps): Promise<RepeatedLine[]> {
  const template = builtins[0];
  const out: RepeatedLine[] = [];
  if (!template) return out;
  for (const p of plugins) {
    if (p.manifest.op !== 'spgemm') continue;
    const expected: Expected[] = [{ method: p.manifest.name, template }];
    const na = spgemmNotApplicable(p.manifest, { backend: c.backend, precision: c.precision }, c.backend === 'cpu' ? c.backendReason : undefined);
    if (na || !p.exe) {
      out.push(userLine(template, p.manifest.name, p.file, 'not_applicable', na ?? 'the plugin was not built'));
      continue;
    }
    out.push(...(await runPluginRepeated(p.exe, [...c.args, '--name', p.manifest.name], p.file, expected, c.repeat, { run: d.runNative })));
  }
  return out;
}
