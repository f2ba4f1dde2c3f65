// Glue for `spbench merge`: read the parts, check them, write one file or list what is wrong.
import { readResultFile } from '../results/read.js';
import { writeResultFile } from '../results/write.js';
import { EXIT } from '../util/errors.js';
import { checkParts, mergeParts } from './merge-parts.js';

export async function mergeCommand(paths: string[], output: string): Promise<void> {
  const parts = await Promise.all(paths.map(async (path) => ({ path, file: await readResultFile(path) })));
  const { missing, duplicates } = checkParts(parts);
  if (missing.length || duplicates.length) {
    const lines = [
      ...(missing.length ? [`${missing.length} suite case(s) missing:`, ...missing.map((m) => `  ${m}`)] : []),
      ...(duplicates.length ? [`${duplicates.length} duplicate(s):`, ...duplicates.map((d) => `  ${d}`)] : []),
    ];
    process.stderr.write(`spbench: merge: ${output} not written, the parts do not make one whole run of suite "${parts[0].file.shard!.suite}":\n${lines.join('\n')}\n`);
    process.exitCode = EXIT.regression;
    return;
  }
  const file = mergeParts(parts, ['spbench', ...process.argv.slice(2)]);
  writeResultFile(output, file);
  process.stderr.write(`merged ${parts.length} part(s), ${file.cases.length} case(s) of suite "${parts[0].file.shard!.suite}" into ${output}\n`);
}
