import type { Pool, PoolClient } from 'pg';

// Pools around a real pool that watch or disturb what the trigger acceptor sends, for its int tests.

/**
 * The triggers of an accept statement: the elements of its first parameter, the array of their event
 * ids, sent in PostgreSQL's binary format (`arrayParam`), whose one dimension's length is at byte 12.
 */
export const acceptedInBatch = (values: unknown[]) => (values[0] as Buffer).readInt32BE(12);
/** Whether a named statement is the accept statement (of either kind: with the channels merge or without). */
export const isAccept = (name: string | undefined) => name === 'herald-accept-triggers' || name === 'herald-accept-triggers-channels';

/** A pool whose first multi-trigger transaction commits but loses the COMMIT's reply. */
export function poolLosingOneCommitReply(pool: Pool): Pool {
  let lost = false;
  const wrapped = Object.create(pool) as Pool;
  wrapped.connect = (async () => {
    const client = await pool.connect();
    let batchOfMany = false;
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const proxy = Object.create(client) as PoolClient;
    proxy.query = (async (...args: unknown[]) => {
      const config = args[0] as { name?: string; values?: unknown[] };
      if (isAccept(config?.name) && acceptedInBatch(config.values!) > 1) batchOfMany = true;
      const result = await query(...args);
      if (args[0] === 'COMMIT' && batchOfMany && !lost) {
        lost = true;
        throw new Error('Connection terminated unexpectedly');
      }
      return result;
    }) as PoolClient['query'];
    proxy.release = (...args: Parameters<PoolClient['release']>) => client.release(...args);
    return proxy;
  }) as Pool['connect'];
  return wrapped;
}

/**
 * A pool that records the number of triggers of each accept statement sent in a transaction, in the
 * order they are sent. With `hold`, the first transaction starts only once that promise settles.
 */
export function poolRecordingBatches(pool: Pool, sizes: number[], hold?: Promise<void>): Pool {
  const wrapped = Object.create(pool) as Pool;
  wrapped.query = pool.query.bind(pool) as Pool['query'];
  let first = true;
  wrapped.connect = (async () => {
    if (first && hold) {
      first = false;
      await hold;
    }
    const client = await pool.connect();
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const proxy = Object.create(client) as PoolClient;
    proxy.query = ((...args: unknown[]) => {
      const config = args[0] as { name?: string; values?: unknown[] };
      if (isAccept(config?.name)) sizes.push(acceptedInBatch(config.values!));
      return query(...args);
    }) as PoolClient['query'];
    proxy.release = (...args: Parameters<PoolClient['release']>) => client.release(...args);
    return proxy;
  }) as Pool['connect'];
  return wrapped;
}

/** A pool recording its named statements (in a transaction too) and its transactions (connections taken). */
export type RecordingPool = Pool & { names: string[]; transactions: number; readonly reads: number; readonly accepts: number };

/**
 * The real pool, recording the named statements that go through it (in a transaction too) and the
 * transactions (connections taken); `reads` and `accepts` count the inline recipients' reads and the
 * accept statements among them.
 */
export function recordingPool(real: Pool): RecordingPool {
  const recording = Object.create(real) as RecordingPool;
  recording.names = [];
  recording.transactions = 0;
  Object.defineProperties(recording, {
    reads: { get: () => recording.names.filter((name) => name === 'herald-inline-recipients').length },
    accepts: { get: () => recording.names.filter(isAccept).length },
  });
  const record = (config: unknown) => {
    const name = (config as { name?: string })?.name;
    if (name) recording.names.push(name);
  };
  recording.query = ((config: unknown, ...rest: unknown[]) => {
    record(config);
    return (real.query as (...args: unknown[]) => unknown)(config, ...rest);
  }) as Pool['query'];
  recording.connect = (async () => {
    recording.transactions++;
    const client = await real.connect();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const proxy = Object.create(client) as PoolClient;
    proxy.query = ((config: unknown, ...rest: unknown[]) => {
      record(config);
      return query(config, ...rest);
    }) as PoolClient['query'];
    return proxy;
  }) as Pool['connect'];
  return recording;
}
