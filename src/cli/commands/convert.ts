// Placeholder: replaced by the module that implements `spbench convert`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('convert')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench convert is not implemented yet');
    });
}
