// Placeholder: replaced by the module that implements `spbench run`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('run')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench run is not implemented yet');
    });
}
