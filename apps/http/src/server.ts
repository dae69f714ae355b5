import type { AddressInfo } from 'node:net';
import { applyMigrations, connectDatabase, pendingMigrations, SqlDeliveryBacklog, keepPlannerStatistics, PgWebhookWaker, startPgBoss, stopPgBoss, type Database, type EmbeddedDatabase, type PgBoss } from '@herald/adapters';
import { DispatchWebhooks, RecoverStalledWork, StartDeliveryWorkers } from '@herald/domain';
import { PgBossDeliveryQueue } from '@herald/adapters';
import { BootstrapOrganization, EnsureBuiltInIntegrations, FlushOverviewCounts, SetUpDashboard } from '@herald/domain';
import { serve, type ServerType } from '@hono/node-server';
import type { Logger } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import { buildContainer } from './container';
import { scheduleHousekeeping } from './housekeeping';
import { createLogger } from './platform/logger';
import { HeraldMetrics } from './observability/metrics';
import { Observability } from './observability/observability';
import { noTracing, type Tracing } from './observability/tracing';
import { metricsRouter } from './routes/metrics/metrics.index';
import { AuthenticateSubscriberToken, ReadLiveInboxChanges } from '@herald/domain';
import { PgInboxFeed } from '@herald/adapters';
import type { Server as HttpServer } from 'node:http';
import { InboxOrigins } from './platform/inbox-cors';
import { InboxSockets } from './realtime/inbox-sockets';
import { watchForDeadWorkers } from './dead-worker-watch';
import { keepIdleConnections } from './platform/keep-alive';
import { answerClientError } from './platform/client-error';
import { startEmbeddedDatabase, type EmbeddedDatabaseStart } from './platform/embedded-database';

export interface RunningHerald {
  url: string;
  port: number;
  databaseUrl: string;
  logger: Logger;
  /** Stops taking requests, lets in-flight ones finish, then closes the database (and the embedded one). */
  stop(): Promise<void>;
}

/**
 * Opens the database (embedded unless DATABASE_URL is set), migrates, bootstraps, and serves HTTP.
 * `embeddedStart` is the embedded database's start when the caller began it already (`main.ts`).
 */
export async function startHerald(config: Config, tracing: Tracing = noTracing, embeddedStart?: EmbeddedDatabaseStart): Promise<RunningHerald> {
  const logger = await createLogger(config.logLevel, config.serviceName, config.logFormat);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    logger.info({ dataDir: config.dataDir }, 'no DATABASE_URL: starting the embedded PostgreSQL');
    const start = embeddedStart ?? startEmbeddedDatabase(config.dataDir);
    start.logTo((line) => logger.debug({ postgres: line.trim() }));
    embedded = await start.database;
    databaseUrl = embedded.url;
  }
  // What has started so far. `stopStarted` stops it in one order, both for `stop` and for a start
  // that fails halfway (a port in use): workers and listeners that hold pooled connections first, or
  // closing the pool waits for them forever.
  let db: Database | undefined;
  let boss: PgBoss | undefined;
  let stopStatistics: (() => Promise<void>) | undefined;
  let metricsServer: ServerType | undefined;
  let server: ServerType | undefined;
  let sockets: InboxSockets | undefined;
  let inboxFeed: PgInboxFeed | undefined;
  let deliveryQueue: PgBossDeliveryQueue | undefined;
  let deadWorkers: Awaited<ReturnType<typeof watchForDeadWorkers>> | undefined;
  let recovery: NodeJS.Timeout | undefined;
  let webhookWaker: PgWebhookWaker | undefined;
  let overviewFlushes: NodeJS.Timeout | undefined;
  let flushOverview: (() => Promise<unknown>) | undefined;
  const stopStarted = () =>
    eachInTurn([
      () => clearInterval(recovery),
      () => clearInterval(overviewFlushes),
      () => deadWorkers?.stop(),
      () => stopStatistics?.(),
      () => sockets?.close(),
      () => closed(server),
      () => closed(metricsServer),
      () => inboxFeed?.stop(),
      // Workers finish the batches they hold (their results are recorded) before anything closes.
      () => deliveryQueue?.stop(),
      () => webhookWaker?.stop(),
      () => deadWorkers?.leave(),
      // After the workers: what they recorded last is counted too.
      () => flushOverview?.(),
      () => boss && stopPgBoss(boss),
      () => db?.close(),
      () => embedded?.stop(),
    ]);
  try {
    db = connectDatabase(databaseUrl);
    const migrating = applyMigrations(db.pool);
    // Prisma's query compiler (WebAssembly) loads while the migrations check and pg-boss's start
    // wait on the database, rather than on the first Prisma query after them.
    const prismaReady = db.prisma.$connect();
    prismaReady.catch(() => undefined);
    // pg-boss keeps its own schema, so it starts beside the migrations (each waits on its round trips).
    const [migrated, bossStarted] = await Promise.allSettled([migrating, startPgBoss(databaseUrl, logger)]);
    // A pg-boss that started is stopped with the rest when the migrations failed.
    if (bossStarted.status === 'fulfilled') boss = bossStarted.value;
    if (migrated.status === 'rejected') throw migrated.reason;
    if (bossStarted.status === 'rejected') throw bossStarted.reason;
    boss = bossStarted.value;
    const applied = migrated.value;
    if (applied.length) logger.info({ migrations: applied }, 'applied migrations');
    stopStatistics = keepPlannerStatistics(db.pool, (err) => logger.warn({ err }, 'refreshing planner statistics failed'));

    const backlog = new SqlDeliveryBacklog(db.pool);
    const metrics = config.metrics.enabled ? new HeraldMetrics(backlog) : undefined;
    await prismaReady;
    const resolver = buildContainer(config, db, boss, logger, new Observability(metrics, tracing));
    const { generatedKey, environments } = await resolver.get(BootstrapOrganization).execute(config.apiKey);
    await resolver.get(EnsureBuiltInIntegrations).execute(environments);
    if (generatedKey) {
      // Shown once: only its hash is stored.
      logger.warn({ environment: generatedKey.environment }, 'generated the first API key (shown once, store it now)');
      process.stdout.write(`\n  ${config.serviceName} API key (${generatedKey.environment}): ${generatedKey.key}\n  Use it as: Authorization: ApiKey ${generatedKey.key}\n\n`);
    }

    await scheduleHousekeeping(resolver, logger, { workers: config.runWorkers });

    const overview = resolver.get(FlushOverviewCounts);
    // The Overview's counts reach PostgreSQL every 2 s (one statement, whatever the traffic).
    flushOverview = () => overview.execute();
    overviewFlushes = setInterval(() => void overview.execute().catch((err) => logger.warn({ err }, 'flushing overview counts failed; kept for the next flush')), 2_000).unref();

    // Queues exist before the first trigger enqueues into them; workers run unless this is an API-only process.
    deliveryQueue = resolver.get(PgBossDeliveryQueue);
    await deliveryQueue.ensureQueues();
    if (config.runWorkers) {
      // Registered before consuming, so every lease and fan-out it takes names a live process.
      deadWorkers = await watchForDeadWorkers(resolver, logger);
      await resolver.get(StartDeliveryWorkers).execute();
      // Outbound webhooks: woken by the outbox's NOTIFY, polled each second for retries coming due.
      const dispatch = resolver.get(DispatchWebhooks);
      webhookWaker = resolver.get(PgWebhookWaker);
      await webhookWaker.start(() => dispatch.execute(), config.webhooks.batch);
      // What a crashed process left behind is queued again now (work idle for 5 s), and anything
      // stalled later every 15 s.
      const recover = resolver.get(RecoverStalledWork);
      const recovered = await recover.execute(5_000);
      if (recovered.events || recovered.notifications) logger.info(recovered, 'requeued unfinished work from an earlier run');
      recovery = setInterval(() => void recover.execute().catch((err) => logger.error({ err }, 'work recovery failed')), 15_000).unref();
    }

    const pool = db.pool;
    const probe = {
      ping: async () => void (await pool.query('SELECT 1')),
      readiness: async () => {
        const [migrations, figures] = await Promise.all([pendingMigrations(pool), backlog.read()]);
        return { migrations, delivery: { lagSeconds: figures.lagSeconds, dueSteps: figures.dueSteps } };
      },
      maxLagSeconds: config.readyMaxLagSeconds,
    };
    const separateMetrics = config.metrics.enabled ? config.metrics.port : undefined;
    const app = buildApp({ resolver, logger, serviceName: config.serviceName, probe, metrics, serveMetrics: separateMetrics === undefined, tracing: tracing.http, inboxDemo: config.inboxDemo });
    if (metrics && separateMetrics !== undefined) {
      metricsServer = await listen(metricsRouter(metrics).fetch, separateMetrics, config.host);
      logger.info({ metrics: `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics` }, 'serving metrics on their own port');
    }
    server = await listen(app.fetch, config.port, config.host);
    // Live inbox updates: LISTEN for every process's changes, push them over this port's sockets.
    inboxFeed = resolver.get(PgInboxFeed);
    await inboxFeed.start();
    sockets = new InboxSockets(server as HttpServer, {
      authenticate: resolver.get(AuthenticateSubscriberToken),
      origins: resolver.get(InboxOrigins),
      feed: inboxFeed,
      readChanges: resolver.get(ReadLiveInboxChanges),
      logger,
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}`;
    // Shown once, like the first API key: only its hash is stored, and it works only while no user exists.
    const setup = await resolver.get(SetUpDashboard).issueToken();
    if (setup) {
      logger.warn({ expiresAt: setup.expiresAt }, 'no dashboard user yet: printed a one-time setup token');
      process.stdout.write(`\n  Dashboard setup (no user yet): ${url}/dashboard/setup#token=${setup.token}\n  Valid 24 hours. Or: pnpm herald users create --email you@example.com --role admin\n\n`);
    }
    logger.info({ url, docs: `${url}/docs` }, `${config.serviceName} is listening`);

    let stopping: Promise<void> | undefined;
    return {
      url,
      port,
      databaseUrl,
      logger,
      stop: () => (stopping ??= stopStarted().finally(() => tracing.shutdown())),
    };
  } catch (error) {
    await stopStarted().catch((err: unknown) => logger.error({ err }, 'stopping what had started did not finish cleanly'));
    throw error;
  }
}

/** Runs each step after the one before, all of them even when one fails; fails with the first failure. */
async function eachInTurn(steps: Array<() => unknown>): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** Resolves once the server (if any) has stopped listening and its connections are closed. */
function closed(server: ServerType | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

function listen(fetch: Parameters<typeof serve>[0]['fetch'], port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, () => resolve(server));
    keepIdleConnections(server);
    server.once('error', reject);
    server.on('clientError', answerClientError);
  });
}
