// Placeholder: replaced by the module that implements `spbench compare`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('compare')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench compare is not implemented yet');
    });
}
