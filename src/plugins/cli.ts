// `spbench build --kernel FILE`: builds plugins ahead of time (a compile check where no GPU exists:
// SPBENCH_CUDA_ARCH gives the architecture). Same manifest checks, cache and messages as a run.
import { existsSync } from 'node:fs';
import { UserError } from '../util/errors.js';
import { buildPlugin } from './build.js';
import { isPythonPlugin, readManifest } from './manifest.js';
import { runnerPath } from './python.js';

export async function buildPluginFiles(files: string[], o: { rebuild?: boolean; log?: (s: string) => void; cacheDir?: string; arch?: string }): Promise<Array<{ method: string; path: string }>> {
  const out: Array<{ method: string; path: string }> = [];
  for (const file of files) {
    if (!existsSync(file)) throw new UserError(`--kernel: file '${file}' does not exist`);
    const manifest = readManifest(file);
    if (isPythonPlugin(file)) {
      out.push({ method: manifest.name, path: `${runnerPath()} runs it (a Python plugin: nothing to compile)` });
      continue;
    }
    const probeArch = async () => {
      const { probeDevices } = await import('../native/backend.js');
      const dev = (await probeDevices())?.devices[0];
      if (!dev) throw new UserError(`--kernel ${file}: no GPU was found to build for; set SPBENCH_CUDA_ARCH (e.g. 90) to compile for a given GPU`);
      return dev.cc;
    };
    out.push({ method: manifest.name, path: await buildPlugin(file, manifest, { rebuild: o.rebuild, log: o.log, cacheDir: o.cacheDir, arch: o.arch, probeArch }) });
  }
  return out;
}
