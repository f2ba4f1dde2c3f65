// Bundles the compiled CLI into one file (dist/src/bundle/spbench.mjs) so the GPU machine, which has
// Node carried in but no npm registry, can run spbench without node_modules. The bundle sits at the
// same depth as the compiled modules, so their paths to package.json and cuda/ still resolve.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/src/cli/main.js'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/src/bundle/spbench.mjs',
  // ink loads react-devtools-core only when DEV=true; a static import of it would make the bundle
  // need the package at start, so it resolves to an empty module instead.
  plugins: [
    {
      name: 'no-devtools',
      setup(b) {
        b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
        b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };' }));
      },
    },
  ],
  banner: { js: "import { createRequire as __spbCreateRequire } from 'node:module'; const require = __spbCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
