import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVICE_NODE_FLAGS } from '../apps/http/scripts/node-flags.mjs';

// `pnpm bench`: every bench/*.bench.ts in its own process (fresh database and memory each), in name order,
// with the Node flags of `pnpm start`: several benches run the service in that process.
const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', `${dir}${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
