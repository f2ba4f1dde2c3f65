// `npm run dev -- <command>`: runs the CLI from the TypeScript sources through ts-node's ESM
// loader (no build step), e.g. `npm run dev -- spmm --batch 10 --backend cpu`.
import { main } from './main.js';

await main(process.argv);
