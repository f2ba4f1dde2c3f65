// Glue for `spbench report`: read, render, write atomically (or print).
import { writeOutput } from '../util/write-output.js';
import { parseFormat, renderReport } from './index.js';
import { readResultFile } from '../results/read.js';

export async function reportCommand(path: string, opts: { format: string; output?: string; baseline?: string }): Promise<void> {
  const format = parseFormat(opts.format);
  const file = await readResultFile(path);
  const text = renderReport(file, format, { baseline: opts.baseline });
  if (opts.output) writeOutput(opts.output, text);
  else process.stdout.write(text);
}
