// Placeholder: replaced by the module that implements `spbench gen`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('gen')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench gen is not implemented yet');
    });
}
