// Exit codes of every spbench command, and the error classes that carry them. src/cli/main.ts maps
// a thrown error to its code; README.md ("Exit codes") and docs/ci-workflow.md print this table.
export const EXIT = {
  /** the command did what was asked (a result with FAILED methods is still a result, see compare) */
  ok: 0,
  /** compare found a significant regression, or a method failed verification in the new file; merge found missing or duplicate cases */
  regression: 1,
  /** bad command line, option value, suite or input file */
  usage: 2,
  /** the environment cannot do it: no usable GPU where one is required, no compiler, no CUDA library, a failed build */
  environment: 3,
  /** spbench or its native executable failed (a crash, unreadable native output): a bug, never a regression */
  internal: 4,
  /** compare found no regression and no failure, but a method that is slower only in a new run taken while the GPU was throttled (verdict "throttled"): rerun on an unthrottled GPU */
  throttled: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Errors the user can act on (bad argument, bad file): printed as one sentence, exit code 2. */
export class UserError extends Error {
  readonly exitCode: ExitCode = EXIT.usage;
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * A native child failed (crash, unreadable output, non-zero status) or another run-time step broke:
 * printed with its detail, exit code 4 (internal) unless a subclass says otherwise.
 */
export class RuntimeFailure extends Error {
  readonly exitCode: ExitCode = EXIT.internal;
  constructor(message: string, readonly detail?: string) {
    super(message);
    this.name = 'RuntimeFailure';
  }
}

/** The machine lacks what the command needs (GPU, compiler, CUDA library) or the build failed: exit code 3. */
export class EnvironmentError extends RuntimeFailure {
  override readonly exitCode: ExitCode = EXIT.environment;
  constructor(message: string, detail?: string) {
    super(message, detail);
    this.name = 'EnvironmentError';
  }
}
