// compare with no case id in common (renamed cases, the wrong file) must not pass: exit 2, saying
// how many cases each side had.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CaseResult } from '../src/results/schema.js';
import { compareResults } from '../src/compare/compare.js';
import { method, resultFile } from './report-fixtures.js';
import { cli, tempDir, writeJson } from './report-cli.js';

const oneCase = (id: string): CaseResult => ({ id, op: 'spmm', label: id, params: { nb: 64 }, input: {}, results: [method('batched-csr', 'ours', [1, 1.01, 0.99])] });

test('no case in common: "nothing to compare" with both counts, exit 2 from the CLI, no output written', async () => {
  const base = resultFile([oneCase('spmm/a/nb=64'), oneCase('spmm/b/nb=64')]);
  const renamed = resultFile([oneCase('spmm/renamed-a/nb=64')]);
  await assert.rejects(compareResults(base, renamed, { threshold: 5, alpha: 0.05, strictEnv: false }, { base: 'base.json', new: 'new.json' }), /nothing to compare: base\.json has 2 cases, new\.json has 1/);
  const dir = tempDir();
  const b = writeJson(dir, 'base.json', base);
  const n = writeJson(dir, 'new.json', renamed);
  const md = join(dir, 'summary.md');
  const r = cli(['compare', b, n, '--markdown', md]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /nothing to compare: .*base\.json has 2 cases, .*new\.json has 1, and no case id is in both/);
  assert.equal(existsSync(md), false);
  // one case in common is enough to compare (the others are reported as missing)
  const partly = writeJson(dir, 'partly.json', resultFile([oneCase('spmm/a/nb=64'), oneCase('spmm/c/nb=64')]));
  assert.equal(cli(['compare', b, partly]).code, 0);
  // an empty new file is nothing to compare either
  const empty = cli(['compare', b, writeJson(dir, 'empty.json', resultFile([]))]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /has 0, and no case id is in both/);
});
