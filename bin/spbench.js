#!/usr/bin/env node
// Runs the compiled CLI (no type-checking loader at run time, so --help starts fast).
import('../dist/src/cli/main.js').then((m) => m.main(process.argv)).catch((err) => {
  process.stderr.write(`spbench: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(2);
});
