// Errors the user can act on (bad argument, bad file): printed as one sentence, exit code 2.
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UserError';
  }
}

/** Errors from a native child or a missing toolchain: printed with their detail, exit code 3. */
export class RuntimeFailure extends Error {
  constructor(message: string, readonly detail?: string) {
    super(message);
    this.name = 'RuntimeFailure';
  }
}
