// Placeholder: replaced by the module that implements `spbench doctor`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench doctor is not implemented yet');
    });
}
