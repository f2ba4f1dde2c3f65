// Placeholder: replaced by the module that implements `spbench spmm`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('spmm')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench spmm is not implemented yet');
    });
}
