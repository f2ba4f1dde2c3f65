// The package's own folder (where package.json and cuda/ are), found from this module's location
// whether it runs compiled (dist/src/util), bundled (dist/src/bundle) or from sources (src/util,
// `npm run dev`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageDir(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'spbench') return dir;
      } catch {
        /* not ours; keep walking up */
      }
    }
    if (dirname(dir) === dir) return resolve(start, '..', '..', '..');
  }
}

export const PACKAGE_DIR = findPackageDir(dirname(fileURLToPath(import.meta.url)));

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}
