// Generates the Prisma client offline. `prisma generate` only uses WebAssembly, but the CLI
// looks for its native schema engine first; pointing it at any existing file skips the download.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const result = spawnSync('pnpm', ['exec', 'prisma', 'generate'], { cwd, env, stdio: 'inherit' });
if (result.status === 0) {
  // A failure here leaves a working client (the one Prisma generated): said, not fatal.
  await loadCompilerFromItsFile().catch((error) => console.warn(`generate-client: the query compiler stays in its module: ${error.message}`));
}
process.exit(result.status ?? 1);

/**
 * The generated client loads its query compiler (3.4 MB of WebAssembly) from a 4.6 MB JavaScript
 * module that holds it as base64: reading, decoding and parsing that module takes 150-180 ms of every
 * start, on the main thread, and the bytes it decodes never change. The compiler is written once,
 * here, as a .wasm file beside the client, which then reads it (3 ms) and compiles it off the main
 * thread. If a Prisma release generates that loader differently, the client is left as generated;
 * the .wasm file is written before the loader is pointed at it.
 */
async function loadCompilerFromItsFile() {
  const internal = join(cwd, 'src/generated/prisma/internal');
  const classFile = join(internal, 'class.ts');
  const source = readFileSync(classFile, 'utf8');
  const loader = /( *getQueryCompilerWasmModule: async \(\) => \{\n)[^\n]*import\("(@prisma\/client\/runtime\/([\w.]+)\.wasm-base64\.mjs)"\)\n[^\n]*decodeBase64AsWasm\(wasm\)\n/;
  const match = source.match(loader);
  if (!match) {
    console.warn('generate-client: the query compiler loader is not the expected one; left as generated');
    return;
  }
  const [, head, module, name] = match;
  const { wasm } = await import(pathToFileURL(createRequire(join(cwd, 'package.json')).resolve(module)).href);
  writeFileSync(join(internal, `${name}.wasm`), Buffer.from(wasm, 'base64'));
  const replacement =
    `${head}    const { readFile } = await import('node:fs/promises')\n` +
    `    return await WebAssembly.compile(await readFile(new URL('./${name}.wasm', import.meta.url)))\n`;
  writeFileSync(classFile, source.replace(loader, replacement));
}
