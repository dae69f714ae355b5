// `pnpm start` and `pnpm herald`: brings the bundle up to date with the sources, then runs the
// service (or, given `cli`, the operator command) from it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVICE_DIR, ensureServiceBuilt } from './build-service.mjs';

const entry = process.argv[2] === 'cli' ? 'cli.js' : 'main.js';
if (entry === 'cli.js') process.argv.splice(2, 1);
await ensureServiceBuilt();
await import(pathToFileURL(join(SERVICE_DIR, entry)).href);
