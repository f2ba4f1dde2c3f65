// One request schema per operation (spmm, spgemm), used by the command-line options
// (src/cli/commands/spmm.ts, spgemm.ts) and by suite cases (src/suite/schema.ts), with one set of
// defaults (REQUEST_DEFAULTS). Every field is checked by the same parser in both places — the
// option parsers of ./options.ts and the generators' parseRange / parseGenSpec — so a request is
// refused with the same sentence whether it came from the command line or a suite file.
//
// A field takes what either side gives: the command line's text ("16,32", a variadic list) or a
// suite's JSON (16, [16, 32], "32:256"). Messages name the field by its option (--nb, --gen-b).
import { existsSync } from 'node:fs';
import { matrixRefExists } from '../matrix/matrix-ref.js';
import { z } from 'zod';
import { parseGenSpec } from '../matrix/generate/spec.js';
import { parseRange } from '../matrix/generate/range.js';
import { GRAPH_KINDS, parseGraphKind } from '../matrix/generate/graph.js';
import { UserError } from '../util/errors.js';
import { resolvedPath } from '../util/path-names.js';
import { LAYOUTS, PRECISIONS, SPGEMM_PRECISIONS, TIMING_MODES, type Op } from '../kinds.js';
import type { SpgemmRequest, SpmmRequest, VerifyMode } from './api.js';
import { cacheList, methodList, nonNegativeInt, oneOf, positiveInt, positiveNumber, samplesValue, splitList } from './options.js';
import { OPTION_NAME, REQUEST_DEFAULTS } from './request-defaults.js';

export { OPTION_NAME, REQUEST_DEFAULTS };

function typeName(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

/** A value as a list of item texts: "16,32" (comma list), 16, or [16, "32"]. `split` off keeps each string whole. */
function itemTexts(v: unknown, opt: string, split = true): string[] {
  if (typeof v === 'string') return split ? splitList(v, opt) : [v];
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.map(String);
  throw new UserError(`${opt}: expected a value or a non-empty list of values, received ${typeName(v)}`);
}

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** A zod field whose value `parse` checks; a UserError becomes the issue's message, word for word. */
function field<T>(parse: (v: unknown) => T) {
  return z
    .unknown()
    .transform((v, ctx): T | undefined => {
      if (v === undefined) return undefined;
      try {
        return parse(v);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
        return z.NEVER;
      }
    })
    .optional();
}

const o = OPTION_NAME;
const intList = (opt: string) => field((v) => unique(itemTexts(v, opt).map((s) => positiveInt(s, opt))));
const rangeList = (opt: string) => field((v) => unique(itemTexts(v, opt)).map((s) => (parseRange(s, opt), s)));
const enumList = <T extends string>(opt: string, allowed: readonly T[]) => field((v) => unique(itemTexts(v, opt).map((s) => oneOf(s, opt, allowed))));
const intField = (opt: string, min: 0 | 1) =>
  field((v) => {
    if (typeof v !== 'string' && typeof v !== 'number') throw new UserError(`${opt}: expected a number, received ${typeName(v)}`);
    return min === 1 ? positiveInt(String(v), opt) : nonNegativeInt(String(v), opt);
  });
const numberField = (opt: string, max: number, allowZero = false) =>
  field((v) => {
    if (typeof v !== 'string' && typeof v !== 'number') throw new UserError(`${opt}: expected a number, received ${typeName(v)}`);
    return positiveNumber(String(v), opt, max, allowZero);
  });
const paths = (opt: string) => field((v) => itemTexts(v, opt, false).map((p) => (p.trim() === '' ? badPath(opt) : p)));
const path = (opt: string) => field((v) => (typeof v === 'string' && v.trim() !== '' ? v : badPath(opt)));
const flag = (opt: string) =>
  field((v) => {
    if (typeof v !== 'boolean') throw new UserError(`${opt}: expected true or false, received ${typeName(v)}`);
    return v;
  });
const genSpec = (opt: string) =>
  field((v) => {
    if (typeof v !== 'string') throw new UserError(`${opt}: expected a generator spec such as "rmat:scale=16,ef=8", received ${typeName(v)}`);
    parseGenSpec(v);
    return v;
  });

function noKernel(p: string): never {
  throw new UserError(`--kernel: file '${p}' does not exist`);
}

function badPath(opt: string): never {
  throw new UserError(`${opt}: expected a file path, received an empty one`);
}

/** Fields both operations take. */
export const COMMON_FIELDS = {
  precision: enumList(o.precision, PRECISIONS),
  methods: field((v) => {
    if (typeof v === 'string') return methodList(v, o.methods);
    return methodList(itemTexts(v, o.methods).join(','), o.methods);
  }),
  seed: intField(o.seed, 0),
  warmup: intField(o.warmup, 0),
  samples: field((v) => {
    if (typeof v !== 'string' && typeof v !== 'number') throw new UserError(`${o.samples}: expected a number or "auto", received ${typeName(v)}`);
    return samplesValue(String(v), o.samples);
  }),
  cache: field((v) => cacheList(itemTexts(v, o.cache).join(','), o.cache)),
  maxNoise: numberField(o.maxNoise, 100),
  minSamples: intField(o.minSamples, 1),
  minTime: numberField(o.minTime, 3600, true),
  timeout: numberField(o.timeout, 86400),
  repeat: intField(o.repeat, 1),
  kernel: field((v) => itemTexts(v, o.kernel, false).map((p) => (p.trim() === '' ? badPath(o.kernel) : existsSync(p) ? p : noKernel(p)))),
};

export const SPMM_FIELDS = {
  ...COMMON_FIELDS,
  batch: intList(o.batch),
  dim: rangeList(o.dim),
  nnzRow: rangeList(o.nnzRow),
  graph: field((v) => {
    if (typeof v !== 'string') throw new UserError(`${o.graph}: expected a graph kind (${GRAPH_KINDS.join(', ')}), received ${typeName(v)}`);
    return parseGraphKind(v);
  }),
  nb: intList(o.nb),
  mode: enumList(o.mode, TIMING_MODES),
  layout: field((v) => oneOf(typeof v === 'string' ? v : typeName(v), o.layout, LAYOUTS)),
  matrices: paths(o.matrices),
};

/** SpGEMM takes f32 and f64 only: a 16-bit --precision is refused naming the option and why. */
const spgemmPrecision = field((v) =>
  unique(
    itemTexts(v, o.precision).map((s) => {
      if (s === 'f16' || s === 'bf16') throw new UserError(`${o.precision} ${s}: spgemm runs f32 and f64 only (f16 and bf16 are for spmm)`);
      return oneOf(s, o.precision, SPGEMM_PRECISIONS);
    }),
  ),
);

export const SPGEMM_FIELDS = {
  ...COMMON_FIELDS,
  precision: spgemmPrecision,
  inputs: paths(o.inputs),
  gen: field((v) => unique(itemTexts(v, o.gen, false)).map((s) => (parseGenSpec(s), s))),
  b: path(o.b),
  gen_b: genSpec(o.gen_b),
  breakdown: flag(o.breakdown),
  explain: flag(o.explain),
  verify: field((v) => parseVerify(v)),
};

/** --verify: auto, full, none or rows:N (N >= 1). */
export function parseVerify(v: unknown): VerifyMode {
  if (v === 'auto' || v === 'full' || v === 'none') return v;
  if (typeof v === 'string' && /^rows:[1-9]\d{0,8}$/.test(v)) return v as VerifyMode;
  throw new UserError(`${o.verify}: expected auto, full, none or rows:N (N >= 1 rows checked), received ${typeof v === 'string' ? `'${v}'` : typeName(v)}`);
}

/** A request as the schema gives it: every field filled, the backend chosen elsewhere. */
export type SpmmFields = Omit<SpmmRequest, 'backend' | 'repeat'> & { repeat: number };
export type SpgemmFields = Omit<SpgemmRequest, 'backend' | 'repeat'> & { repeat: number };

const kernels = (v: { kernel?: string[] }) => (v.kernel?.length ? { kernels: v.kernel } : {});

type Parsed<F extends Record<string, z.ZodType>> = { [K in keyof F]: z.output<F[K]> };
type Issue = (message: string, path?: PropertyKey[]) => void;
const issuer = (ctx: z.RefinementCtx): Issue => (message, p = []) => ctx.addIssue({ code: 'custom', message, path: p });

/** Cross-field rules of spmm, in the order the command line has always checked them. */
export function checkSpmm(v: Parsed<typeof SPMM_FIELDS>, issue: Issue): void {
  if (v.graph !== undefined && v.nnzRow !== undefined && !v.matrices?.length) {
    return issue(`--nnz-row: cannot be combined with --graph ${v.graph} (a graph's rows are its vertices' bonds and self-loop)`, ['nnzRow']);
  }
  if (!v.matrices?.length) return;
  const clash = (['batch', 'dim', 'nnzRow', 'graph'] as const).filter((k) => v[k] !== undefined).map((k) => OPTION_NAME[k]);
  if (clash.length) return issue(`--matrices: cannot be combined with ${clash.join(', ')} (the files are the batch)`, ['matrices']);
  const missing = v.matrices.find((p) => !matrixRefExists(p));
  if (missing !== undefined) issue(`--matrices: '${missing}' does not exist`, ['matrices']);
}

/** Cross-field rules of spgemm: at least one A, files exist, one second operand at most. */
export function checkSpgemm(v: Parsed<typeof SPGEMM_FIELDS>, issue: Issue): void {
  const gen = v.gen ?? [];
  const inputs = v.inputs ?? [];
  if (inputs.length === 0 && gen.length === 0) return issue('spgemm: give at least one matrix file or --gen SPEC (e.g. --gen rmat:scale=16,ef=8)', ['gen']);
  const missing = inputs.find((f) => !matrixRefExists(f));
  if (missing !== undefined) return issue(`spgemm: file '${missing}' does not exist`, ['inputs']);
  const twice = inputs.find((f, i) => inputs.findIndex((g) => resolvedPath(g) === resolvedPath(f)) !== i);
  if (twice !== undefined) return issue(`spgemm: file '${twice}' is given twice (each input is one case)`, ['inputs']);
  if (v.b !== undefined && !matrixRefExists(v.b)) return issue(`--b: file '${v.b}' does not exist`, ['b']);
  if (v.gen_b !== undefined) {
    if (v.b !== undefined) return issue('--gen-b: cannot be combined with --b (give one second operand)', ['gen_b']);
    if (gen.length !== 1 || inputs.length !== 0) return issue(`--gen-b: needs exactly one --gen (the A of A·B) and no matrix files, got ${gen.length} --gen and ${inputs.length} file(s)`, ['gen_b']);
  }
}

/** The spmm request (backend aside) with the defaults filled in. */
export function spmmFromFields(v: Parsed<typeof SPMM_FIELDS>): SpmmFields {
  const d = REQUEST_DEFAULTS;
  return {
    batch: v.batch ?? d.batch,
    dim: v.dim ?? d.dim,
    ...(v.graph !== undefined ? { nnzRow: [], graph: v.graph } : { nnzRow: v.nnzRow ?? d.nnzRow }),
    nb: v.nb ?? d.nb,
    precision: v.precision ?? d.precision,
    mode: v.mode ?? d.mode,
    layout: v.layout ?? d.layout,
    methods: v.methods ?? d.methods,
    ...(v.matrices?.length ? { matrices: v.matrices } : {}),
    ...samplingFields(v),
    repeat: v.repeat ?? d.repeat,
    ...kernels(v),
  };
}

/** seed, warm-up and the sampling fields of either op, defaults filled in. */
function samplingFields(v: Parsed<typeof COMMON_FIELDS>): Required<Pick<SpmmFields, 'seed' | 'warmup' | 'samples' | 'cache' | 'sampling'>> {
  const d = REQUEST_DEFAULTS;
  return {
    seed: v.seed ?? d.seed,
    warmup: v.warmup ?? d.warmup,
    samples: v.samples ?? d.samples,
    cache: v.cache ?? d.cache,
    sampling: { maxNoise: v.maxNoise ?? d.maxNoise, minSamples: v.minSamples ?? d.minSamples, minTime: v.minTime ?? d.minTime, timeout: v.timeout ?? d.timeout },
  };
}

/** The spgemm request (backend aside) with the defaults filled in. */
export function spgemmFromFields(v: Parsed<typeof SPGEMM_FIELDS>): SpgemmFields {
  const d = REQUEST_DEFAULTS;
  return {
    inputs: v.inputs ?? [],
    gen: v.gen ?? [],
    ...(v.b !== undefined ? { b: v.b } : {}),
    ...(v.gen_b !== undefined ? { genB: v.gen_b } : {}),
    precision: v.precision ?? d.precision,
    methods: v.methods ?? d.methods,
    ...samplingFields(v),
    repeat: v.repeat ?? d.repeat,
    breakdown: v.breakdown ?? d.breakdown,
    explain: v.explain ?? d.explain,
    verify: v.verify ?? d.verify,
    ...kernels(v),
  };
}

/** A request object (command line or suite case) of one operation: fields, rules, defaults. */
export function requestSchema<E extends z.ZodRawShape>(op: 'spmm', extra: E): z.ZodType<SpmmFields & z.output<z.ZodObject<E>>>;
export function requestSchema<E extends z.ZodRawShape>(op: 'spgemm', extra: E): z.ZodType<SpgemmFields & z.output<z.ZodObject<E>>>;
export function requestSchema(op: Op, extra: z.ZodRawShape): z.ZodType {
  if (op === 'spmm') {
    return z
      .strictObject({ ...extra, ...SPMM_FIELDS })
      .superRefine((v, ctx) => checkSpmm(v as Parsed<typeof SPMM_FIELDS>, issuer(ctx)))
      .transform((v) => ({ ...pickExtra(v, extra), ...spmmFromFields(v as Parsed<typeof SPMM_FIELDS>) }));
  }
  return z
    .strictObject({ ...extra, ...SPGEMM_FIELDS })
    .superRefine((v, ctx) => checkSpgemm(v as Parsed<typeof SPGEMM_FIELDS>, issuer(ctx)))
    .transform((v) => ({ ...pickExtra(v, extra), ...spgemmFromFields(v as Parsed<typeof SPGEMM_FIELDS>) }));
}

function pickExtra(v: Record<string, unknown>, extra: z.ZodRawShape): Record<string, unknown> {
  return Object.fromEntries(Object.keys(extra).filter((k) => v[k] !== undefined).map((k) => [k, v[k]]));
}

export const SpmmRequestFields = requestSchema('spmm', {});
export const SpgemmRequestFields = requestSchema('spgemm', {});

/**
 * Parses a request given on the command line: the first problem, as the one sentence it was
 * raised with, becomes a UserError (exit 2).
 */
export function parseCliRequest<T>(schema: z.ZodType<T>, raw: Record<string, unknown>): T {
  const r = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
  if (r.success) return r.data;
  const first = r.error.issues[0];
  if (first.code === 'unrecognized_keys') throw new Error(`internal: the command line built a request with unknown fields ${first.keys.join(', ')}`);
  throw new UserError(first.message);
}
