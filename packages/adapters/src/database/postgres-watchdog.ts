import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which process answers for the embedded PostgreSQL of a data directory: the Herald that started
 * it, or the one that adopted it after that one died. A watchdog follows the owner named here.
 */
const OWNER_FILE = 'postgres.owner';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the owning process, when it is alive. */
export function liveOwner(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, OWNER_FILE), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

// Polls once a second. When the owner is gone and no process took its place, PostgreSQL is told to
// shut down fast (SIGINT) and the watchdog ends; it also ends when PostgreSQL stops on its own.
const WATCH = `
while kill -0 "$2" 2>/dev/null; do
  owner=$(cat "$1" 2>/dev/null)
  if [ -z "$owner" ] || ! kill -0 "$owner" 2>/dev/null; then kill -INT "$2"; exit 0; fi
  sleep 1
done`;

/**
 * Makes this process the owner of the cluster whose postmaster is `postmasterPid`, and starts a
 * watchdog that stops that cluster if this process dies without stopping it (kill -9, a crash,
 * an out-of-memory kill): an embedded PostgreSQL never outlives its Herald for more than about a
 * second, unless another Herald adopts it first. The watchdog is a shell loop in a session of its own
 * (so a signal to this process's group does not reach it), and ends with the cluster.
 */
export function ownCluster(dataDir: string, postmasterPid: number): void {
  const ownerFile = join(dataDir, OWNER_FILE);
  writeFileSync(ownerFile, String(process.pid));
  const watchdog = spawn('sh', ['-c', WATCH, 'herald-postgres-watchdog', ownerFile, String(postmasterPid)], { detached: true, stdio: 'ignore' });
  watchdog.on('error', () => undefined);
  watchdog.unref();
}

/** After a clean stop: nobody owns the (stopped) cluster. */
export function disown(dataDir: string): void {
  if (liveOwner(dataDir) === process.pid) rmSync(join(dataDir, OWNER_FILE), { force: true });
}
