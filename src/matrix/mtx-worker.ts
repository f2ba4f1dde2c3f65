// Worker of the parallel Matrix Market reader (mtx-parallel.ts): parses one byte range of the
// entries into COO, reports its per-row counts, then scatters its triplets into the shared CSR
// arrays at the offsets the main thread hands back.
import { parentPort, workerData } from 'node:worker_threads';
import { countRows, partitionRowBlocks, scatterRowBlocks } from './csr.js';
import { readLineChunks } from './line-chunks.js';
import { MtxParser } from './mtx-parser.js';

interface Job {
  path: string;
  start: number;
  stop: number;
  prelude: string; // banner and size line, to set the parser up exactly as the main thread did
}

const job = workerData as Job;
const port = parentPort!;
try {
  const parser = new MtxParser(job.path, job.stop - job.start);
  const prelude = Buffer.from(job.prelude);
  parser.consume(prelude, prelude.length);
  parser.entriesOnly();
  await readLineChunks(job.path, (buf, end) => parser.consume(buf, end), { start: job.start, stop: job.stop });
  const p = parser.part();
  const blocks = partitionRowBlocks({ rows: p.rows, cols: p.cols, nnz: p.n, rowIdx: p.rowIdx, colIdx: p.colIdx, values: p.values });
  const counts = countRows(blocks, p.rows);
  const first = p.n ? [p.rowIdx[0], p.colIdx[0]] : null;
  const last = p.n ? [p.rowIdx[p.n - 1], p.colIdx[p.n - 1]] : null;
  port.postMessage({ count: p.count, n: p.n, rowMajor: p.rowMajor, colMajor: p.colMajor, first, last, counts }, [counts.buffer as ArrayBuffer]);
  port.once('message', (msg: { next: Float64Array; colIdx: Int32Array; values: Float64Array }) => {
    scatterRowBlocks(blocks, msg.next, msg.colIdx, msg.values);
    port.postMessage({ done: true });
  });
} catch (err) {
  port.postMessage({ error: (err as Error).message });
}
