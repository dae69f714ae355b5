import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isAlive } from '@herald/adapters';
import { SERVICE_NODE_FLAGS } from '../../apps/http/scripts/node-flags.mjs';

// Herald on its own embedded PostgreSQL (no DATABASE_URL), started as a user starts it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const API_KEY = 'lifecycle-key';

export function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, HERALD_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', HERALD_API_KEY: API_KEY, LOG_LEVEL: 'info' };
}

export async function startEmbedded(dataDir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const herald = spawnEmbedded(dataDir);
  const url = (await herald.logged(/"url":"(http:\/\/[^"]+)"/))[1];
  return { child: herald.child, url, output: herald.output };
}

/** Herald started on `dataDir` (with `env` on top); `logged` waits (up to 60 s) for a line of its output to match. */
export function spawnEmbedded(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; logged: (pattern: RegExp) => Promise<RegExpExecArray>; output: () => string } {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'apps/http/scripts/start.mjs'], { cwd: ROOT, env: { ...embeddedEnv(dataDir), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const logged = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = (): boolean => {
        const match = pattern.exec(output);
        if (match) {
          done();
          resolve(match);
        }
        return match !== null;
      };
      const onData = () => void check();
      const failed = (code: number | null) => {
        done();
        reject(new Error(`exited with ${code}:\n${output}`));
      };
      const timer = setTimeout(() => (done(), reject(new Error(`never logged ${pattern}:\n${output}`))), 60_000);
      const done = () => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.off('exit', failed);
      };
      child.stdout!.on('data', onData);
      child.once('exit', failed);
      if (!check() && (child.exitCode !== null || child.signalCode !== null)) failed(child.exitCode);
    });
  return { child, logged, output: () => output };
}

/** The operator command, run without blocking this process's event loop (its connections stay served). */
export async function runCli(dataDir: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['apps/http/scripts/start.mjs', 'cli', ...args], { cwd: ROOT, env: embeddedEnv(dataDir) });
  return stdout;
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
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
