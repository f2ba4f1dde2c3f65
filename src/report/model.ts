// Groups the cases of a result file into figures, the unit every printer works on:
// SpMM cases that differ only in n_B form one "GFLOPS against n_B" figure (seed 001 Fig. 6/7);
// SpGEMM cases of one precision form one "per matrix" figure (seed 004 Fig. 2/4).
import type { CaseResult, MethodResult, ResultFile } from '../results/schema.js';
import { fastestPeer } from './present.js';

export type Param = string | number | boolean;

export interface NbFigure {
  kind: 'nb';
  title: string;
  params: Record<string, Param>; // shared parameters (no nb)
  nbs: number[]; // ascending
  methods: string[]; // in order of first appearance
  /** Method result at an n_B, or undefined when that method did not run there. */
  at(method: string, nb: number): MethodResult | undefined;
  cases: CaseResult[];
}

export interface MatrixFigure {
  kind: 'matrix';
  title: string;
  params: Record<string, Param>;
  matrices: string[]; // category names, in order of appearance
  methods: string[];
  at(method: string, matrix: string): MethodResult | undefined;
  /** The method each matrix's speedup and memory ratio are relative to (undefined: none ran ok). */
  baseline(matrix: string): string | undefined;
  cases: CaseResult[];
}

export type Figure = NbFigure | MatrixFigure;

/** Parameters that name a figure's x axis or identity rather than the figure itself. */
const NB_KEYS = new Set(['nb']);

/**
 * A short matrix name: for SpGEMM the case's own operand names (params a, b: a generator spec, or a
 * file by the shortest path suffix that told it apart from the run's other inputs); otherwise a
 * generator spec as written, a file by its base name.
 */
export function matrixName(c: CaseResult): string {
  const { a, b } = c.params;
  if (c.op === 'spgemm' && typeof a === 'string' && a !== '') return typeof b === 'string' && b !== '' && b !== a ? `${a} · ${b}` : a;
  const v = String(c.input.name ?? c.input.source ?? c.params.matrix ?? c.label);
  if (v.startsWith('gen ')) return v.slice(4);
  return /[\\/]/.test(v) && !v.includes(':') ? v.split(/[\\/]/).pop() || v : v;
}

function stableKey(params: Record<string, Param>, skip: Set<string>): string {
  return Object.keys(params)
    .filter((k) => !skip.has(k))
    .sort()
    .map((k) => `${k}=${String(params[k])}`)
    .join('/');
}

function without(params: Record<string, Param>, skip: Set<string>): Record<string, Param> {
  return Object.fromEntries(Object.entries(params).filter(([k]) => !skip.has(k)));
}

export function describeParams(params: Record<string, Param>): string {
  const names: Record<string, string> = { nnzRow: 'nnz/row', nnz_row: 'nnz/row', nnz: 'nnz/row' };
  return Object.entries(params)
    .filter(([k]) => k !== 'suite_case')
    .map(([k, v]) => (k === 'precision' || k === 'mode' || k === 'layout' ? String(v) : `${names[k] ?? k}=${String(v)}`))
    .join(', ');
}

function methodOrder(cases: CaseResult[]): string[] {
  const seen = new Set<string>();
  for (const c of cases) for (const r of c.results) seen.add(r.method);
  return [...seen];
}

function lookup(cases: CaseResult[], keyOf: (c: CaseResult) => string | number) {
  const m = new Map<string, MethodResult>();
  for (const c of cases) for (const r of c.results) m.set(`${keyOf(c)}\u0000${r.method}`, r);
  return (method: string, key: string | number) => m.get(`${key}\u0000${method}`);
}

function nbFigure(cases: CaseResult[]): NbFigure {
  const params = without(cases[0].params, NB_KEYS);
  const nbs = [...new Set(cases.map((c) => Number(c.params.nb)))].sort((a, b) => a - b);
  const get = lookup(cases, (c) => Number(c.params.nb));
  const prefix = params.suite_case ? `${String(params.suite_case)}: ` : '';
  return { kind: 'nb', title: `${prefix}SpMM ${describeParams(params)}`, params, nbs, methods: methodOrder(cases), at: get, cases };
}

/**
 * Category names: the matrix name, prefixed with the suite case where two cases of one figure ran
 * the same matrix (so that neither hides the other).
 */
function categoryNames(cases: CaseResult[]): Map<CaseResult, string> {
  const count = new Map<string, number>();
  for (const c of cases) count.set(matrixName(c), (count.get(matrixName(c)) ?? 0) + 1);
  return new Map(cases.map((c) => {
    const n = matrixName(c);
    return [c, (count.get(n) ?? 0) > 1 ? `${String(c.params.suite_case ?? c.id)}/${n}` : n];
  }));
}

function matrixFigure(cases: CaseResult[], baselineMethod?: string): MatrixFigure {
  const first = cases[0];
  // Per-matrix figures span suite cases (seed 004 plots every matrix in one figure per precision).
  const params: Record<string, Param> = {};
  for (const k of ['precision', 'mode'] as const) if (first.params[k] !== undefined) params[k] = first.params[k];
  const names = categoryNames(cases);
  const matrices = [...new Set(cases.map((c) => names.get(c)!))];
  const methods = methodOrder(cases);
  const get = lookup(cases, (c) => names.get(c)!);
  const title = `${first.op === 'spgemm' ? 'SpGEMM' : 'SpMM'} ${describeParams(params)}`.trim();
  const baseline = (matrix: string) => {
    if (baselineMethod) return get(baselineMethod, matrix)?.status === 'ok' ? baselineMethod : undefined;
    return fastestPeer(methods.map((m) => get(m, matrix)))?.method;
  };
  return { kind: 'matrix', title, params, matrices, methods, at: get, baseline, cases };
}

export interface FigureOptions {
  /** Method that speedups and memory ratios are relative to; default: the fastest peer per matrix. */
  baseline?: string;
}

/** Figures in the order their first case appears in the file. */
export function buildFigures(file: ResultFile, opts: FigureOptions = {}): Figure[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of file.cases) {
    const isNb = c.op === 'spmm' && Number.isFinite(Number(c.params.nb));
    const key = isNb
      ? `nb|${stableKey(c.params, NB_KEYS)}`
      : `matrix|${c.op}|${String(c.params.precision ?? '')}|${String(c.params.mode ?? '')}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.entries()].map(([key, cases]) => (key.startsWith('nb|') ? nbFigure(cases) : matrixFigure(cases, opts.baseline)));
}

/** Speedup of `r` over the baseline result (ratio of medians), null where either has no time. */
export function speedup(r: MethodResult | undefined, base: MethodResult | undefined): number | null {
  if (!r || !base || r.status !== 'ok' || base.status !== 'ok' || !r.median_ms || !base.median_ms) return null;
  return base.median_ms / r.median_ms;
}

/** Peak-memory ratio of `r` to the baseline result, null where either is missing. */
export function memRatio(r: MethodResult | undefined, base: MethodResult | undefined): number | null {
  if (!r || !base || r.status !== 'ok' || base.status !== 'ok' || !base.peak_mem_bytes) return null;
  return r.peak_mem_bytes / base.peak_mem_bytes;
}

/** Formats a number with `digits` significant digits, no exponent for the sizes we print. */
export function fmt(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 10 ** digits) return x.toFixed(0);
  return Number(x.toPrecision(digits)).toString();
}

export function environmentLine(file: ResultFile): string {
  const dev = file.device ? `${file.device.name} (cc ${file.device.cc}, ${file.device.sms} SMs)` : `CPU backend (${file.host.cpus})`;
  const cuda = file.env?.cuda ? `, CUDA runtime ${file.env.cuda.runtime}, driver ${file.env.cuda.driver}` : '';
  const commit = file.spbench.commit ? ` @ ${file.spbench.commit.slice(0, 10)}` : '';
  return `${dev}${cuda}; spbench ${file.spbench.version}${commit}; ${file.created}`;
}
