import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isAlive } from '@herald/adapters';
import { ROOT, launchHeraldProcess, serviceEnv, spawnHeraldProcess } from './herald-process';

export { exitOf } from './herald-process';

// Herald on its own embedded PostgreSQL (no DATABASE_URL), started as a user starts it.
export const API_KEY = 'lifecycle-key';

const embedded = (dataDir: string): NodeJS.ProcessEnv => ({ DATABASE_URL: undefined, HERALD_DATA_DIR: dataDir, HERALD_API_KEY: API_KEY });

export function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  return serviceEnv(embedded(dataDir));
}

export async function startEmbedded(dataDir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const { child, url, output } = await launchHeraldProcess({ env: embedded(dataDir) });
  return { child, url, output };
}

/** Herald started on `dataDir` (with `env` on top); `logged` waits (up to 60 s) for a line of its output to match. */
export function spawnEmbedded(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; logged: (pattern: RegExp) => Promise<RegExpExecArray>; output: () => string } {
  const { child, logged, output } = spawnHeraldProcess({ env: { ...embedded(dataDir), ...env } });
  return { child, logged, output };
}

/** The operator command, run without blocking this process's event loop (its connections stay served). */
export async function runCli(dataDir: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['apps/http/scripts/start.mjs', 'cli', ...args], { cwd: ROOT, env: embeddedEnv(dataDir) });
  return stdout;
}

/** The postmaster's pid from the cluster's pid file, whether it is running or not. */
export function postmasterPid(dataDir: string): number | null {
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
}

export function postgresRunning(dataDir: string): boolean {
  const pid = postmasterPid(dataDir);
  return pid !== null && isAlive(pid);
}

/** Processes whose command line mentions `text` (the data directory, say). */
export function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function until(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
