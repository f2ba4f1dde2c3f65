// `spbench merge`: joins the result files of a suite's shards into one file that report and compare
// read as if it had been one run. The parts must come from one suite (and one shard count), one
// commit and one device kind (input errors, exit 2); missing and duplicate cases are a finding
// (exit 1, with the list), and then nothing is written.
import type { ResultFile } from '../results/schema.js';
import { UserError } from '../util/errors.js';

export interface Part {
  path: string;
  file: ResultFile;
}

export interface MergeFindings {
  missing: string[]; // suite cases no part holds
  duplicates: string[]; // sentences: a case id (or a shard) held by two parts
}

/** The device kind of a file: the backend and the GPU's name. */
export function deviceKind(f: ResultFile): string {
  return f.device ? `${f.backend} ${f.device.name}` : `${f.backend} backend`;
}

function same<T>(parts: Part[], what: string, get: (f: ResultFile) => T, show: (v: T) => string = String): void {
  const first = get(parts[0].file);
  const other = parts.find((p) => get(p.file) !== first);
  if (other) throw new UserError(`${parts[0].path} and ${other.path} come from different ${what} (${show(first)} vs ${show(get(other.file))}); merge joins the shards of one run`);
}

/** Checks the parts; returns what is missing or doubled (empty lists: fine to merge). */
export function checkParts(parts: Part[]): MergeFindings {
  if (parts.length === 0) throw new UserError('merge: give the result files of the shards to join');
  const unsharded = parts.find((p) => !p.file.shard);
  if (unsharded) throw new UserError(`${unsharded.path} was not written by run --shard (it has no "shard" record), so merge cannot tell which cases belong to it`);
  same(parts, 'suites', (f) => f.shard!.suite);
  same(parts, 'shard counts', (f) => f.shard!.count, (n) => `of ${n}`);
  same(parts, 'commits', (f) => f.spbench.commit, (c) => c ?? 'unknown commit');
  same(parts, 'device kinds', deviceKind);
  same(parts, 'suite definitions', (f) => f.shard!.suite_cases.join('\n'), () => 'the list of suite cases differs');
  const duplicates: string[] = [];
  const byShard = new Map<number, string>();
  for (const p of parts) {
    const k = p.file.shard!.index;
    if (byShard.has(k)) duplicates.push(`shard ${k}/${p.file.shard!.count} is given twice (${byShard.get(k)} and ${p.path})`);
    else byShard.set(k, p.path);
  }
  const byId = new Map<string, string>();
  for (const p of parts) {
    for (const c of p.file.cases) {
      if (byId.has(c.id) && byId.get(c.id) !== p.path) duplicates.push(`case ${c.id} is in ${byId.get(c.id)} and ${p.path}`);
      byId.set(c.id, p.path);
    }
  }
  // A suite case counts as present only where a part has results for it: a shard whose case failed
  // to run lists the case but holds none of its results.
  const withResults = new Set(parts.flatMap((p) => p.file.cases.map((c) => c.params.suite_case)).filter((n): n is string => typeof n === 'string'));
  const missing = parts[0].file.shard!.suite_cases.filter((n) => !withResults.has(n)).map((n) => {
    const shards = [...byShard.keys()];
    const planned = parts.find((p) => p.file.shard!.cases.includes(n));
    return planned ? `${n} (shard ${planned.file.shard!.index}/${planned.file.shard!.count}, ${planned.path}, has no results for it)` : `${n} (its shard is not among the parts: have ${shards.sort((a, b) => a - b).join(', ')} of ${parts[0].file.shard!.count})`;
  });
  return { missing, duplicates };
}

/** One file from checked parts: cases in suite order, metadata of the first part, no shard record. */
export function mergeParts(parts: Part[], command: string[]): ResultFile {
  const order = new Map(parts[0].file.shard!.suite_cases.map((n, i) => [n, i]));
  const rank = (c: ResultFile['cases'][number]): number => order.get(String(c.params.suite_case)) ?? order.size;
  const cases = parts.flatMap((p) => p.file.cases).map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c);
  const created = parts.map((p) => p.file.created).sort()[0];
  const { shard: _shard, ...first } = parts[0].file;
  return { ...first, created, command, cases };
}
