// Placeholder: replaced by the module that implements `spbench info`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('info')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench info is not implemented yet');
    });
}
