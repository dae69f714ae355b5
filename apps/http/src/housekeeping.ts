import { FlushOverviewCounts, PurgeClosedThrottleWindows, PurgeExpiredDashboardRecords, PurgeExpiredHistory, PurgeExpiredIdempotencyKeys, Scheduler } from '@herald/domain';
import type { Logger } from 'pino';
import type { Resolver } from './platform/app-env';

/** The retention purge's scheduled task (its queue): `pnpm herald retention purge` files a run into it. */
export const RETENTION_PURGE_TASK = 'retention-purge';
/** A purge run stops starting batches after this long, before the next minute's tick; that run goes on from there. */
export const PURGE_BUDGET_MS = 45_000;

/**
 * Every table that grows with traffic is purged by one of these schedules (each runs in one process
 * at a time across the installation; the list of tables is in docs/retention.md). The retention
 * purge runs only in processes with delivery workers: an API-only process keeps its time for requests.
 */
export async function scheduleHousekeeping(resolver: Resolver, logger: Logger, { workers }: { workers: boolean }): Promise<void> {
  const scheduler = resolver.get<Scheduler>(Scheduler);
  const purgeIdempotencyKeys = resolver.get(PurgeExpiredIdempotencyKeys);
  await scheduler.every('idempotency-keys-purge', '* * * * *', async () => {
    const purged = await purgeIdempotencyKeys.execute();
    if (purged) logger.debug({ purged }, 'purged expired idempotency keys');
  });
  const purgeThrottleWindows = resolver.get(PurgeClosedThrottleWindows);
  await scheduler.every('throttle-windows-purge', '17 * * * *', async () => {
    const purged = await purgeThrottleWindows.execute();
    if (purged) logger.debug({ purged }, 'purged closed throttle windows and old admissions');
  });
  const purgeDashboard = resolver.get(PurgeExpiredDashboardRecords);
  const overview = resolver.get(FlushOverviewCounts);
  await scheduler.every('dashboard-and-overview-purge', '23 * * * *', async () => {
    const purged = { ...(await purgeDashboard.execute()), overviewRows: await overview.purge() };
    logger.debug(purged, 'purged expired dashboard sessions, invitations, sign-in windows and old overview counts');
  });
  if (!workers) return;
  const purgeHistory = resolver.get(PurgeExpiredHistory);
  await scheduler.every(RETENTION_PURGE_TASK, '* * * * *', async () => {
    const { counts, purged, keeping, finished } = await purgeHistory.execute({ budgetMs: PURGE_BUDGET_MS });
    if (counts.notifications || counts.events || purged.length) logger.info({ counts, purged, finished }, 'purged delivery history past its retention');
    if (keeping.length) logger.info({ keeping }, 'days past their retention keep notifications still in flight');
  });
}
