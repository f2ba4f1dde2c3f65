// `spbench merge PARTS… -o all.json`: joins the result files of `run --shard` into one.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('merge')
    .description('Join the result files of run --shard K/N (one suite, commit and device kind) into one result file; exit 1 listing missing or duplicate cases')
    .argument('<parts...>', 'result files written by spbench run --shard')
    .requiredOption('-o, --output <file>', 'the merged result file (written atomically, only when nothing is missing)')
    .addHelpText('after', '\nExit codes: 0 merged, 1 cases missing or duplicated (nothing written), 2 parts of different suites, commits or devices, or unreadable.\n\nExamples:\n  spbench merge part-*.json -o all.json\n  spbench merge shards/*.json -o perf/new.json && spbench report perf/new.json')
    .action(async (paths: string[], opts: { output: string }) => {
      const { mergeCommand } = await import('../../scale/merge-command.js');
      await mergeCommand(paths, opts.output);
    });
}
