// Generates the Prisma client offline. `prisma generate` only uses WebAssembly, but the CLI
// looks for its native schema engine first; pointing it at any existing file skips the download.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], { cwd, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
