import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// What `pnpm herald` runs: the operator command from the service bundle (built once by the global setup).
const START = fileURLToPath(new URL('../../apps/http/scripts/start.mjs', import.meta.url));

/** `pnpm herald <args>` against a service's database, as an operator runs it; resolves to what it printed. */
export async function operatorCommand(databaseUrl: string, ...args: string[]): Promise<string> {
  return operatorCommandFed(databaseUrl, '', ...args);
}

/** The same, with `input` on its stdin (a password typed at the prompt); rejects with its stderr when it fails. */
export function operatorCommandFed(databaseUrl: string, input: string, ...args: string[]): Promise<string> {
  return operatorCommandWith({ DATABASE_URL: databaseUrl }, input, ...args);
}

/** The same, with these variables over this process's (HERALD_ALLOW_PRIVATE_NETWORKS, say). */
export function operatorCommandWith(env: NodeJS.ProcessEnv, input: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [START, 'cli', ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error ? reject(Object.assign(new Error(`${error.message}\n${stderr}`), { stderr, exitCode: error.code })) : resolve(stdout),
    );
    child.stdin!.end(input);
  });
}

/** The key `pnpm herald keys create` printed (it is shown once). */
export async function createApiKey(databaseUrl: string, environment: string): Promise<string> {
  return /^\s+(\S+)\s*$/m.exec(await operatorCommand(databaseUrl, 'keys', 'create', '--environment', environment))![1];
}
