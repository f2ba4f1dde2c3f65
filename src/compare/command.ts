// Glue for `spbench compare`: read both files, compare, print the table, write the summaries,
// set the exit code (0 no regression, 1 regression; input errors throw UserError → 2).
import { appendFileSync } from 'node:fs';
import { readResultFile } from '../results/read.js';
import { writeOutput } from '../util/write-output.js';
import { UserError } from '../util/errors.js';
import { compareResults } from './compare.js';
import { renderCompareMarkdown, renderJunit, renderTerminal, warningLines } from './render.js';
import { githubStepSummary } from '../config.js';
import { acrossDevices } from '../scale/across.js';

function number(text: string, what: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new UserError(`${what} must be a number (got "${text}")`);
  return v;
}

export interface CompareCommandOptions {
  threshold: string;
  alpha: string;
  markdown?: string | boolean;
  junit?: string;
  strictEnv?: boolean;
  normalizeByPeers?: boolean;
  acrossDevices?: boolean;
}

export async function compareCommand(basePath: string, newPath: string, opts: CompareCommandOptions): Promise<void> {
  const threshold = number(opts.threshold, '--threshold');
  const alpha = number(opts.alpha, '--alpha');
  const [base, next] = await Promise.all([readResultFile(basePath), readResultFile(newPath)]);
  const across = acrossDevices(base, next, Boolean(opts.acrossDevices), { base: basePath, new: newPath });
  if (across) process.stderr.write(`spbench: ${across}\n`);
  const report = await compareResults(base, next, { threshold, alpha, strictEnv: Boolean(opts.strictEnv), normalizeByPeers: Boolean(opts.normalizeByPeers) }, { base: basePath, new: newPath });
  // Loud: the warnings go to stderr too, so they show in CI logs even when stdout is captured.
  for (const w of warningLines(report)) process.stderr.write(`spbench: ${w}\n`);
  process.stdout.write(`${across ? `${across}\n` : ''}${await renderTerminal(report)}`);
  if (opts.markdown !== undefined && opts.markdown !== false) {
    const md = `${across ? `> [!NOTE]\n> ${across}\n\n` : ''}${renderCompareMarkdown(report)}`;
    if (typeof opts.markdown === 'string') writeOutput(opts.markdown, md);
    else if (githubStepSummary()) appendFileSync(githubStepSummary()!, md); // the job summary is appended to, by design
    else process.stdout.write(`\n${md}`);
  }
  if (opts.junit) writeOutput(opts.junit, renderJunit(report));
  process.exitCode = report.exitCode;
}
