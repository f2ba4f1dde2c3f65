// `spbench fetch GROUP/NAME… | --set NAME`: SuiteSparse archives into the cache (src/fetch/).
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

interface FetchCliOptions {
  set?: string[];
  mirror?: string;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('fetch')
    .summary('download SuiteSparse matrices (GROUP/NAME or a set from matrices/) into the cache')
    .description(
      'Download .tar.gz archives from the SuiteSparse Matrix Collection into the cache (<cache>/suitesparse/GROUP/NAME.tar.gz), ' +
        'with a progress line, size/checksum/archive checks, and resume of an interrupted download. Archives already in the ' +
        'cache are used without network access. Suites name a set as "set:NAME" and run what is fetched.',
    )
    .argument('[matrices...]', 'GROUP/NAME as the collection names it (e.g. Williams/cant), or NAME when a set knows it')
    .option('--set <name...>', 'every matrix of a set in matrices/ (spgemm-classic, gnn-small)')
    .option('--mirror <url>', 'base URL of the collection (default $SPBENCH_MIRROR or https://suitesparse-collection-website.herokuapp.com)')
    .option('--json', 'print one JSON object per matrix')
    .addHelpText(
      'after',
      `
Examples:
  spbench fetch Williams/cant Boeing/pwtk
  spbench fetch --set spgemm-classic
  spbench fetch cant --mirror http://mirror.example/suitesparse
  spbench info ~/.cache/spbench/suitesparse/Williams/cant.tar.gz`,
    )
    .action(async (names: string[], o: FetchCliOptions) => {
      const { fetchOne, resolveWanted } = await import('../../fetch/suitesparse.js');
      const { loadSet } = await import('../../matrix/sets.js');
      if (names.length === 0 && !o.set?.length) throw new UserError('fetch: give GROUP/NAME… or --set NAME');
      if (o.mirror !== undefined && !/^https?:\/\//.test(o.mirror)) throw new UserError(`--mirror must be an http(s) URL, got "${o.mirror}"`);
      const wanted = [...(o.set ?? []).flatMap((s) => loadSet(s).matrices), ...names.map((n) => resolveWanted(n))];
      const log = (s: string) => process.stderr.write(`${s}\n`);
      let failed: unknown;
      for (const w of wanted) {
        try {
          const r = await fetchOne(w, { mirror: o.mirror, log });
          process.stdout.write(o.json ? `${JSON.stringify(r)}\n` : `${r.id}: ${r.status === 'cached' ? 'in the cache' : 'downloaded'} ${r.path} (${r.bytes} bytes)\n`);
        } catch (err) {
          if (wanted.length === 1) throw err;
          process.stderr.write(`spbench: ${(err as Error).message}\n`);
          failed ??= err; // go on with the others; the first failure sets the exit code
        }
      }
      if (failed) throw failed;
    });
}
