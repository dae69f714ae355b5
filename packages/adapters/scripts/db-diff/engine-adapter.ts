import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';

import type { PrismaPg as PrismaPgClass } from '@prisma/adapter-pg';
import type pgModule from 'pg';

import { withClient, type Cluster } from './cluster.js';

const require = createRequire(import.meta.url);

type PgAdapter = Awaited<ReturnType<PrismaPgClass['connect']>>;
type PgQueryable = Pick<PgAdapter, 'queryRaw'>;
type ResultSet = Awaited<ReturnType<PgAdapter['queryRaw']>>;

export interface DriverAdapterUtils {
  bindMigrationAwareSqlAdapterFactory(factory: object): object & { errorRegistry?: unknown };
  ColumnTypeEnum: { Character: number };
}

/**
 * `@prisma/driver-adapter-utils` is a dependency of `@prisma/adapter-pg`, not of this package:
 * resolve it from adapter-pg's location (so it is the very copy adapter-pg uses).
 */
export function loadDriverAdapterUtils(): DriverAdapterUtils {
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

export interface EngineAdapter {
  /** The object to hand to `SchemaEngine.new`. */
  bound: object;
  /** Ends every pool and drops any shadow database left behind. */
  close(): Promise<void>;
}

export function createEngineAdapter(opts: {
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
