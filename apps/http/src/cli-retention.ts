import { PrismaTenancyRepository, SqlRetentionRepository, type Database } from '@herald/adapters';
import { ConfigureRetention, dayLabel, type PurgeCounts, type RetentionView } from '@herald/domain';

export const RETENTION_USAGE = `  retention [--environment <slug|id>] [--days <n>]
                                            how long the environment keeps its delivery history, and
                                            what the purge removed from each of its last n days (14)`;

/** `--retention-days` of `environments set`: a number of days, or `default` to follow HERALD_RETENTION_DAYS. */
export async function setRetention(db: Database, serviceDefault: number, environment: string, value: string): Promise<RetentionView> {
  const retention = new ConfigureRetention(new PrismaTenancyRepository(db.prisma), serviceDefault);
  return value.trim().toLowerCase() === 'default' ? retention.reset(environment) : retention.set(environment, value);
}

export function retentionText({ days, own }: RetentionView): string {
  return `retention ${days} days${own === null ? ' (the service default)' : ''}`;
}

const countsText = (c: PurgeCounts) =>
  `${c.notifications} notifications, ${c.jobs} jobs, ${c.executionDetails} details, ${c.messages} messages, ${c.digestWindows} digests, ${c.events} events`;

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
