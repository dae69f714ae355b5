import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The zero-configuration path: no DATABASE_URL, so the service runs its own embedded PostgreSQL.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let dataDir: string;

function env(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, HERALD_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', HERALD_API_KEY: 'lifecycle-key', LOG_LEVEL: 'info' };
}

async function start(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/http/src/main.ts'], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  return { child, url };
}

function postgresRunning(): boolean {
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'herald-lifecycle-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('the service on its embedded database', () => {
  it('keeps data across restarts, works with the operator command beside it, and stops cleanly on SIGTERM', async () => {
    const headers = { authorization: 'ApiKey lifecycle-key', 'content-type': 'application/json' };
    let { child, url } = await start();
    expect((await fetch(`${url}/v1/health-check`)).status).toBe(200);
    expect((await fetch(`${url}/v2/subscribers`, { method: 'POST', headers, body: JSON.stringify({ subscriberId: 'survivor' }) })).status).toBe(201);

    // The operator command uses the running service's database instead of starting another.
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'apps/http/src/cli.ts', 'keys', 'create', '--environment', 'production'], { cwd: ROOT, env: env(), encoding: 'utf8' });
    expect(cli.status).toBe(0);
    const key = /(hk_\S+)/.exec(cli.stdout)![1];
    expect((await fetch(`${url}/v2/subscribers/survivor`, { headers: { authorization: `ApiKey ${key}` } })).status).toBe(404);
    expect((await fetch(`${url}/v1/health-check`)).status).toBe(200);

    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(postgresRunning()).toBe(false);

    ({ child, url } = await start());
    const again = await fetch(`${url}/v2/subscribers/survivor`, { headers });
    expect(again.status).toBe(200);
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    expect(postgresRunning()).toBe(false);
  }, 180_000);
});
