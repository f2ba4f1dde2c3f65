// Whole lines out of a stream of Buffer chunks (gunzip output, a tar member): the same contract
// as line-chunks.ts — consume(buf, end) gets buf[0, end) ending in '\n' — for inputs that have no
// file handle to read ranges from. The last line gets a newline if the stream lacks one.
const NL = 10;

export class LineFeeder {
  private rest: Buffer = Buffer.alloc(0);

  constructor(private readonly consume: (buf: Buffer, end: number) => void) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    let body = chunk;
    if (this.rest.length) {
      // finish the carried line first, then hand over the chunk's whole lines without copying
      const first = chunk.indexOf(NL);
      if (first < 0) {
        this.rest = Buffer.concat([this.rest, chunk]);
        return;
      }
      const line = Buffer.concat([this.rest, chunk.subarray(0, first + 1)]);
      this.rest = Buffer.alloc(0);
      this.consume(line, line.length);
      body = chunk.subarray(first + 1);
    }
    const cut = body.lastIndexOf(NL) + 1;
    if (cut > 0) this.consume(body, cut);
    // copy the tail: the producer may reuse the chunk's memory
    if (cut < body.length) this.rest = Buffer.from(body.subarray(cut));
  }

  end(): void {
    if (this.rest.length === 0) return;
    const buf = Buffer.concat([this.rest, Buffer.from([NL])]);
    this.rest = Buffer.alloc(0);
    this.consume(buf, buf.length);
  }
}
