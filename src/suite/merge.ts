// Merges the result files of a suite's cases into one file of the same schema. Case ids get the
// suite case's name as a prefix (two suite cases may run the same parameters, e.g. Fig. 6 and 7),
// and params.suite_case records it so that reports group figures by suite case.
import type { CaseResult, ResultFile } from '../results/schema.js';
import { UserError } from '../util/errors.js';

export interface NamedResult {
  name: string; // suite case name
  file: ResultFile;
}

export function tagCase(name: string, c: CaseResult, backend?: string): CaseResult {
  return { ...c, id: `${name}/${c.id}`, params: { suite_case: name, ...c.params, ...(backend ? { backend } : {}) } };
}

/**
 * One file from many: metadata of the first, `command` and `created` from the suite run. Files from
 * different backends or devices keep their backend in each case's params (and a warning is returned).
 */
export function mergeResultFiles(parts: NamedResult[], meta: { command: string[]; created: string }): { file: ResultFile; warnings: string[] } {
  if (!parts.length) throw new UserError('no suite case produced results, so there is nothing to write');
  const first = parts[0].file;
  const warnings: string[] = [];
  const mixed = parts.some((p) => p.file.backend !== first.backend || p.file.device?.name !== first.device?.name);
  if (mixed) warnings.push(`cases ran on different backends/devices (${[...new Set(parts.map((p) => `${p.file.backend}${p.file.device ? ` ${p.file.device.name}` : ''}`))].join(', ')}); each case records its backend in params.backend`);
  const cases = parts.flatMap((p) => p.file.cases.map((c) => tagCase(p.name, c, mixed ? p.file.backend : undefined)));
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) warnings.push(`case id ${c.id} appears twice; compare will refuse this file`);
    ids.add(c.id);
  }
  return { file: { ...first, created: meta.created, command: meta.command, cases }, warnings };
}
