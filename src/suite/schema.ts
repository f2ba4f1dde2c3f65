// Suite files: a named list of spmm/spgemm cases with their axes, validated with zod. `defaults`
// fills any field a case leaves out. Unknown fields are errors (a typo must not silently fall back).
import { z } from 'zod';

const PosInt = z.number().int().positive();
const NonNegInt = z.number().int().nonnegative();
/** A value or a non-empty list of values; always a list after parsing. */
const listOf = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);
/** "64", 64 or a mixed range "32:256" (what --dim and --nnz-row accept). */
const RangeText = z.union([NonNegInt, z.string().regex(/^\d+(:\d+)?$/, 'expected a count such as 64 or a range such as "32:256"')]).transform(String);
const Precision = z.enum(['f32', 'f64']);
const Mode = z.enum(['kernel', 'e2e', 'graph']);
const Methods = z.union([z.literal('all'), z.array(z.string().min(1)).min(1)]);
const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a name of letters, digits, ".", "_" or "-" (it becomes part of case ids)');

// Fields a case or `defaults` may set; their defaults when neither does.
const common = {
  precision: listOf(Precision).default(['f32']),
  methods: Methods.default('all'),
  samples: PosInt.default(20),
  repeat: PosInt.default(1), // separate native process runs (spbench spmm/spgemm --repeat)
  warmup: NonNegInt.default(5),
  seed: NonNegInt.default(1),
};
const spmmAxes = {
  batch: listOf(PosInt).optional(),
  dim: listOf(RangeText).optional(),
  nnzRow: listOf(RangeText).optional(),
  nb: listOf(PosInt).default([64]),
  mode: listOf(Mode).default(['kernel']),
  layout: z.enum(['row', 'col']).default('row'),
  matrices: listOf(z.string().min(1)).optional(),
};
const spgemmAxes = {
  gen: listOf(z.string().regex(/^[a-z][a-z0-9]*(:.*)?$/, 'expected a generator spec such as "rmat:scale=16,ef=8"')).optional(),
  inputs: listOf(z.string().min(1)).optional(),
  b: z.string().min(1).optional(),
  breakdown: z.boolean().default(false),
};

export const SpmmCase = z
  .strictObject({ op: z.literal('spmm'), name: Name, description: z.string().optional(), ...common, ...spmmAxes })
  .superRefine((c, ctx) => {
    if (c.matrices) return;
    for (const k of ['batch', 'dim', 'nnzRow'] as const) {
      if (!c[k]) ctx.addIssue({ code: 'custom', path: [k], message: `required (or give "matrices")` });
    }
  });
export type SpmmCase = z.output<typeof SpmmCase>;

export const SpgemmCase = z
  .strictObject({ op: z.literal('spgemm'), name: Name, description: z.string().optional(), ...common, ...spgemmAxes })
  .superRefine((c, ctx) => {
    if (!c.gen?.length && !c.inputs?.length) ctx.addIssue({ code: 'custom', path: ['gen'], message: 'a spgemm case needs "gen" (generator specs) or "inputs" (matrix files)' });
  });
export type SpgemmCase = z.output<typeof SpgemmCase>;

export const SuiteCase = z.discriminatedUnion('op', [SpmmCase, SpgemmCase]);
export type SuiteCase = z.output<typeof SuiteCase>;

/** Every field a case may take, all optional: what `defaults` may hold. */
export const SuiteDefaults = z.strictObject({
  precision: common.precision.optional(),
  methods: Methods.optional(),
  samples: PosInt.optional(),
  repeat: PosInt.optional(),
  warmup: NonNegInt.optional(),
  seed: NonNegInt.optional(),
  ...spmmAxes,
  nb: spmmAxes.nb.optional(),
  mode: spmmAxes.mode.optional(),
  layout: spmmAxes.layout.optional(),
  ...spgemmAxes,
  breakdown: spgemmAxes.breakdown.optional(),
});

export const Suite = z
  .strictObject({
    $schema: z.string().optional(),
    name: Name,
    description: z.string().optional(),
    defaults: z.record(z.string(), z.unknown()).optional(), // validated by SuiteDefaults first (see load.ts)
    cases: z.array(SuiteCase).min(1),
  })
  .superRefine((s, ctx) => {
    const seen = new Map<string, number>();
    s.cases.forEach((c, i) => {
      if (seen.has(c.name)) ctx.addIssue({ code: 'custom', path: ['cases', i, 'name'], message: `duplicate case name "${c.name}" (also cases[${seen.get(c.name)}])` });
      seen.set(c.name, i);
    });
  });
export type Suite = z.output<typeof Suite>;

