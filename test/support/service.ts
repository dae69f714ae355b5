import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createTestDatabase } from '@herald/adapters/testing';
import { launchHeraldProcess, requestWithKey, type HeraldProcess, type RequestInitWithJson } from './herald-process';

export interface TestService {
  url: string;
  apiKey: string;
  databaseUrl: string;
  /** fetch against the service with the API key. */
  request(path: string, init?: RequestInitWithJson): Promise<Response>;
  /** SIGTERM, wait for exit; the database stays. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  /** Start again on the same database. */
  restart(): Promise<void>;
  output(): string;
  /** Stop and drop the database. */
  dispose(): Promise<void>;
  /** The process id of the running service. */
  readonly pid: number;
  /** Starts another Herald process on this service's database (its dispose leaves the database). */
  startPeer(env?: Record<string, string>): Promise<TestService>;
}

/** Starts Herald as a user would (`pnpm start`, see ./herald-process) on a fresh database. */
export async function startService(
  env: Record<string, string> = {},
  shared?: { db: { url: string; drop(): Promise<void> }; apiKey: string },
): Promise<TestService> {
  const db = shared?.db ?? (await createTestDatabase(inject('adminDatabaseUrl')));
  const apiKey = shared?.apiKey ?? `test_${randomBytes(12).toString('hex')}`;
  const launch = () => launchHeraldProcess({ env: { DATABASE_URL: db.url, HERALD_API_KEY: apiKey, ...env } });
  let herald: HeraldProcess & { url: string } = await launch();

  const service: TestService = {
    get url() {
      return herald.url;
    },
    apiKey,
    databaseUrl: db.url,
    get pid() {
      return herald.pid;
    },
    startPeer: (peerEnv = {}) => startService({ ...env, ...peerEnv }, { db: { url: db.url, drop: async () => undefined }, apiKey }),
    request: (path, init) => requestWithKey(herald.url, apiKey, path, init),
    stop: () => herald.stop(),
    kill: () => herald.kill(),
    async restart() {
      herald = await launch();
    },
    output: () => herald.output(),
    async dispose() {
      await herald.stop();
      await db.drop();
    },
  };
  return service;
}
