import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';

const started: { db: EmbeddedDatabase; dir: string }[] = [];
afterEach(async () => {
  for (const { db, dir } of started.splice(0)) {
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

/** The address PostgreSQL sees for a connection made with `url`: null over a Unix socket. */
async function clientAddress(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ addr: string | null }>('SELECT client_addr::text AS addr FROM pg_stat_activity WHERE pid = pg_backend_pid()');
    return rows[0].addr;
  } finally {
    await client.end();
  }
}

it('serves the service over a Unix socket in the cluster directory, and other clients over TCP on 127.0.0.1', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'herald-socket-'));
  const db = await startEmbeddedPostgres({ dataDir: dir, durable: false });
  started.push({ db, dir });
  expect(new URL(db.url).searchParams.get('host')).toBe(join(dir, 'pg'));
  expect(await clientAddress(db.url)).toBeNull();
  expect(await clientAddress(`postgresql://postgres:herald@127.0.0.1:${db.port}/herald`)).toBe('127.0.0.1/32');
}, 60_000);

it('runs a durable cluster that makes new WAL segments without writing them full of zeros first', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'herald-wal-'));
  const db = await startEmbeddedPostgres({ dataDir: dir });
  started.push({ db, dir });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const setting = async (name: string) => (await client.query<{ setting: string }>('SELECT setting FROM pg_settings WHERE name = $1', [name])).rows[0].setting;
    expect({ walInitZero: await setting('wal_init_zero'), fsync: await setting('fsync'), synchronousCommit: await setting('synchronous_commit') }).toEqual({
      walInitZero: 'off',
      fsync: 'on',
      synchronousCommit: 'on',
    });
  } finally {
    await client.end();
  }
}, 60_000);

it('falls back to TCP when the socket path would be longer than the system allows', async () => {
  const parent = await mkdtemp(join(tmpdir(), 'herald-socket-'));
  await chmod(parent, 0o755); // as root, PostgreSQL runs as its own user, who must reach the data directory
  const dir = join(parent, 'a-data-directory-deep-enough-that-the-socket-path-passes-a-hundred-characters');
  const db = await startEmbeddedPostgres({ dataDir: dir, durable: false });
  started.push({ db, dir: parent });
  expect(new URL(db.url).searchParams.has('host')).toBe(false);
  expect(await clientAddress(db.url)).toBe('127.0.0.1/32');
}, 60_000);

it('fails a start with an error that says why, from what PostgreSQL logged', async () => {
  // A cluster directory that claims to be initialised but has no configuration: the server exits at once.
  const dir = await mkdtemp(join(tmpdir(), 'herald-broken-'));
  try {
    await mkdir(join(dir, 'pg'));
    await writeFile(join(dir, 'pg', 'PG_VERSION'), '17\n');
    const failure = await startEmbeddedPostgres({ dataDir: dir, durable: false }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(`the embedded PostgreSQL in ${join(dir, 'pg')} did not start`);
    expect((failure as Error).message).toMatch(/could not access the server configuration file/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

it('stops only after the connections still closing have left: none of them is cut off with an error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'herald-stop-'));
  try {
    const db = await startEmbeddedPostgres({ dataDir: dir, durable: false });
    // A pool's end() resolves once it has asked its connections to close, before their backends are
    // gone; under load they take a moment. Here one takes 300 ms.
    const client = new pg.Client({ connectionString: db.url });
    const errors: string[] = [];
    client.on('error', (err) => errors.push(err.message));
    await client.connect();
    const stopping = db.stop();
    await new Promise((r) => setTimeout(r, 300));
    const closed = await client.end().then(() => 'closed', (err: Error) => err.message);
    await stopping;
    expect({ closed, errors }).toEqual({ closed: 'closed', errors: [] });
    expect(existsSync(join(dir, 'pg', 'postmaster.pid'))).toBe(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
