// Suite files: a named list of spmm/spgemm cases, validated with zod. A case is a request of its
// operation — the same schema, rules and defaults as the command line (src/bench/request-schema.ts) —
// plus its op, name and description; `defaults` fills any field a case leaves out. Unknown fields
// are errors (a typo must not silently fall back).
import { z } from 'zod';
import type { Op } from '../kinds.js';
import { requestSchema, SPGEMM_FIELDS, SPMM_FIELDS } from '../bench/request-schema.js';

const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a name of letters, digits, ".", "_" or "-" (it becomes part of case ids)');
const caseFields = <O extends Op>(op: O) => ({ op: z.literal(op), name: Name, description: z.string().optional() });

export const SpmmCase = requestSchema('spmm', caseFields('spmm'));
export type SpmmCase = z.output<typeof SpmmCase>;
export const SpgemmCase = requestSchema('spgemm', caseFields('spgemm'));
export type SpgemmCase = z.output<typeof SpgemmCase>;
export type SuiteCase = SpmmCase | SpgemmCase;

/** The request fields a case of each op takes (what `defaults` may give it). */
export const CASE_FIELDS = { spmm: Object.keys(SPMM_FIELDS), spgemm: Object.keys(SPGEMM_FIELDS) } as const;

/** Every field a case may take, each checked as in a case: what `defaults` may hold. */
export const SuiteDefaults = z.strictObject({ ...SPMM_FIELDS, ...SPGEMM_FIELDS });

/** The suite around its cases; each case is checked by its op's schema in load.ts. */
export const SuiteShell = z.strictObject({
  $schema: z.string().optional(),
  name: Name,
  description: z.string().optional(),
  defaults: z.record(z.string(), z.unknown()).optional(),
  cases: z.array(z.unknown()).min(1),
});

export interface Suite {
  name: string;
  description?: string;
  cases: SuiteCase[];
}
