import { PgBossScheduler, PrismaTenancyRepository, SqlRetentionRepository, startPgBoss, stopPgBoss, type Database } from '@herald/adapters';
import { ConfigureRetention, dayLabel, DomainError, type PurgeCounts, type RetentionView } from '@herald/domain';
import pino from 'pino';
import { RETENTION_PURGE_TASK } from './housekeeping';

export const RETENTION_USAGE = `  retention [--environment <slug|id>] [--days <n>]
                                            how long the environment keeps its delivery history, and
                                            what the purge removed from each of its last n days (14)
  retention purge                           have the running service purge now instead of at the
                                            next minute (it goes on from where the last run stopped)`;

/** `--retention-days` of `environments set`: a number of days, or `default` to follow HERALD_RETENTION_DAYS. */
export async function setRetention(db: Database, serviceDefault: number, environment: string, value: string): Promise<RetentionView> {
  const retention = new ConfigureRetention(new PrismaTenancyRepository(db.prisma), serviceDefault);
  return value.trim().toLowerCase() === 'default' ? retention.reset(environment) : retention.set(environment, value);
}

export function retentionText({ days, own }: RetentionView): string {
  return `retention ${days} days${own === null ? ' (the service default)' : ''}`;
}

const countsText = (c: PurgeCounts) =>
  `${c.notifications} notifications, ${c.jobs} jobs, ${c.executionDetails} details, ${c.messages} messages, ${c.digestWindows} digests, ${c.events} events, ` +
  `${c.webhookEvents} webhook events (${c.webhookDeliveries} deliveries, ${c.webhookAttempts} attempts)`;

/** `pnpm herald retention`: the setting in force and the purge's record of the latest days. */
export async function retentionCommand(db: Database, serviceDefault: number, environment: string, lastDays: number): Promise<void> {
  const view = await new ConfigureRetention(new PrismaTenancyRepository(db.prisma), serviceDefault).show(environment);
  console.log(`${view.environment.slug}: ${retentionText(view)}`);
  const days = await new SqlRetentionRepository(db.pool).days(view.environment.id, lastDays);
  if (!days.length) console.log('  nothing purged yet');
  for (const d of days) {
    const state = d.state === 'purged' ? `purged ${d.purgedAt?.toISOString()}` : `purging, ${d.kept} rows kept in flight`;
    console.log(`  ${dayLabel(d.day)}\t${state}\t${countsText(d.counts)}`);
  }
}

/**
 * `pnpm herald retention purge`: files a run of the scheduled purge, which a running service picks up
 * at once; the queue keeps one run at a time, so this never runs a second purge beside one.
 */
export async function queuePurge(databaseUrl: string): Promise<void> {
  const log = pino({ level: 'silent' });
  // An operator's short-lived process: no maintenance or cron of its own.
  const boss = await startPgBoss(databaseUrl, log, { max: 1, supervise: false, schedule: false });
  try {
    const queued = await new PgBossScheduler(boss, log).runNow(RETENTION_PURGE_TASK).catch((error: unknown) => {
      if (!(error instanceof Error) || !/does not exist/.test(error.message)) throw error;
      throw new DomainError('BAD_REQUEST', 'No Herald process with delivery workers has started on this database yet: the purge runs in one.');
    });
    console.log(queued ? 'Purge queued: a running service starts it within seconds.' : 'A purge run is already waiting; it will do.');
  } finally {
    await stopPgBoss(boss, 1_000);
  }
}
