#!/usr/bin/env node
// Runs the compiled CLI (no type-checking loader at run time, so --help starts fast). Where
// node_modules is absent (the GPU machine gets Node carried in, no npm), the single-file bundle
// built by `npm run bundle` serves instead.
const load = () =>
  import('../dist/src/cli/main.js').catch((err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && /node_modules|'(commander|zod|ink|react|cli-table3|jstat)'/.test(String(err.message))) {
      return import('../dist/src/bundle/spbench.mjs');
    }
    throw err;
  });
load()
  .then((m) => m.main(process.argv))
  .catch((err) => {
    // the CLI could not even be loaded: an install problem or a bug, exit 4 (internal; see EXIT in src/util/errors.ts)
    process.stderr.write(`spbench: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(4);
  });
