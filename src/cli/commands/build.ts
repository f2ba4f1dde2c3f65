// Placeholder: replaced by the module that implements `spbench build`.
import type { Command } from 'commander';
import { UserError } from '../../util/errors.js';

export function register(program: Command): void {
  program
    .command('build')
    .description('(not implemented yet)')
    .action(() => {
      throw new UserError('spbench build is not implemented yet');
    });
}
