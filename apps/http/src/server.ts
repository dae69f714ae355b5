import type { AddressInfo } from 'node:net';
import { applyMigrations, connectDatabase, startEmbeddedPostgres, type Database, type EmbeddedDatabase } from '@herald/adapters';
import { BootstrapOrganization } from '@herald/domain';
import { serve, type ServerType } from '@hono/node-server';
import type { Logger } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { buildContainer } from './container';
import { createLogger } from './platform/logger';

export interface RunningHerald {
  url: string;
  port: number;
  databaseUrl: string;
  logger: Logger;
  /** Stops taking requests, lets in-flight ones finish, then closes the database (and the embedded one). */
  stop(): Promise<void>;
}

/** Opens the database (embedded unless DATABASE_URL is set), migrates, bootstraps, and serves HTTP. */
export async function startHerald(config: Config): Promise<RunningHerald> {
  const logger = createLogger(config.logLevel, config.serviceName);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'no DATABASE_URL: starting the embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, onLog: (m) => logger.debug({ postgres: m.trim() }) });
    databaseUrl = embedded.url;
  }
  let db: Database | undefined;
  try {
    db = connectDatabase(databaseUrl);
    const applied = await applyMigrations(db.pool);
    if (applied.length) logger.info({ migrations: applied }, 'applied migrations');

    const resolver = buildContainer(config, db);
    const { generatedKey } = await resolver.get(BootstrapOrganization).execute(config.apiKey);
    if (generatedKey) {
      // Shown once: only its hash is stored.
      logger.warn({ environment: generatedKey.environment }, 'generated the first API key (shown once, store it now)');
      process.stdout.write(`\n  ${config.serviceName} API key (${generatedKey.environment}): ${generatedKey.key}\n  Use it as: Authorization: ApiKey ${generatedKey.key}\n\n`);
    }

    const pool = db.pool;
    const app = buildApp({ resolver, logger, serviceName: config.serviceName, probe: { ping: async () => void (await pool.query('SELECT 1')) } });
    const server = await listen(app.fetch, config.port, config.host);
    const port = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}`;
    logger.info({ url, docs: `${url}/docs` }, `${config.serviceName} is listening`);

    const database = db;
    let stopping: Promise<void> | undefined;
    return {
      url,
      port,
      databaseUrl,
      logger,
      stop: () =>
        (stopping ??= (async () => {
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await database.close();
          await embedded?.stop();
        })()),
    };
  } catch (error) {
    await db?.close();
    await embedded?.stop();
    throw error;
  }
}

function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, () => resolve(server));
    server.once('error', reject);
  });
}
