import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const CLI = fileURLToPath(new URL('../../apps/http/src/cli.ts', import.meta.url));

/** `pnpm herald <args>` against a service's database, as an operator runs it; resolves to what it printed. */
export async function operatorCommand(databaseUrl: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });
  return stdout;
}

/** The key `pnpm herald keys create` printed (it is shown once). */
export async function createApiKey(databaseUrl: string, environment: string): Promise<string> {
  return /^\s+(\S+)\s*$/m.exec(await operatorCommand(databaseUrl, 'keys', 'create', '--environment', environment))![1];
}
