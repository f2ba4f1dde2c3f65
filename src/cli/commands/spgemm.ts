// Placeholder: replaced by the module that implements `spbench spgemm`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('spgemm')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench spgemm is not implemented yet');
    });
}
