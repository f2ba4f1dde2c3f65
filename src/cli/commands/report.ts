// `spbench report results.json --format md|csv|html|svg`: renders a result file.
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('report')
    .description('Render a result file as Markdown tables, CSV, SVG plots or a self-contained HTML page')
    .argument('<results...>', 'result file written by --json or spbench run; several files of different devices are put side by side')
    .option('-f, --format <format>', 'md | csv | html | svg', 'md')
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .option('--baseline <method>', 'method that speedups and memory ratios are relative to (default: the fastest peer per matrix)')
    .addHelpText('after', '\nExamples:\n  spbench report new.json\n  spbench report new.json --format html -o report.html\n  spbench report spgemm.json --format svg --baseline cusparse-alg1 -o spgemm.svg\n  spbench report h100.json h200.json --format html -o devices.html   (the same cases on two devices)')
    .action(async (paths: string[], opts: { format: string; output?: string; baseline?: string }) => {
      if (paths.length > 1) {
        const { devicesReportCommand } = await import('../../scale/device-report-command.js');
        await devicesReportCommand(paths, opts);
        return;
      }
      const { reportCommand } = await import('../../report/command.js');
      await reportCommand(paths[0], opts);
    });
}
