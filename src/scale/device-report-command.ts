// Glue for `spbench report A.json B.json …`: several result files side by side (src/scale/device-report.ts).
import { parseFormat } from '../report/index.js';
import { readResultFile } from '../results/read.js';
import { UserError } from '../util/errors.js';
import { writeOutput } from '../util/write-output.js';
import { renderDevices } from './device-report.js';

export async function devicesReportCommand(paths: string[], opts: { format: string; output?: string; baseline?: string }): Promise<void> {
  const format = parseFormat(opts.format);
  if (opts.baseline !== undefined) throw new UserError('--baseline applies to a report of one file; a report of several files compares each device with its own fastest peer');
  const files = await Promise.all(paths.map(async (path) => ({ path, file: await readResultFile(path) })));
  const text = renderDevices(files, format);
  if (opts.output) writeOutput(opts.output, text);
  else process.stdout.write(text);
}
