// The tail of a child's output, quoted in failure messages (runner.ts, and build.ts, which must not
// load the protocol schemas that runner.ts needs: the Matrix Market parser builds its addon through it).
export const STDERR_TAIL_BYTES = 4096;

/** Keeps the last `max` characters of a stream. */
export class Tail {
  private text = '';
  constructor(private readonly max = STDERR_TAIL_BYTES) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > 2 * this.max) this.text = this.text.slice(-this.max);
  }
  toString(): string {
    return this.text.length > this.max ? `…${this.text.slice(-this.max)}` : this.text;
  }
}

/** Appends a child's stderr tail to a message (or says there was none). */
export function withTail(message: string, tail: string, what = 'stderr'): string {
  const t = tail.trimEnd();
  return t ? `${message}\n--- ${what} (last ${STDERR_TAIL_BYTES} bytes) ---\n${t}` : `${message} (${what} was empty)`;
}
