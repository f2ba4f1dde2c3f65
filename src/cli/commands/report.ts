// Placeholder: replaced by the module that implements `spbench report`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('report')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench report is not implemented yet');
    });
}
