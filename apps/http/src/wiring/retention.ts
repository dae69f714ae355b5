import { SqlRetentionRepository } from '@herald/adapters';
import { ConfigureRetention, PurgeExpiredHistory, RetentionRepository, TenancyRepository } from '@herald/domain';
import type { Wiring } from './binder';

/**
 * Notifications (with their jobs, details and messages) per transaction, and the pause after each
 * batch as a multiple of its time: measured with bench/retention.bench.ts (docs/retention.md). Every
 * trigger's commit flushes the WAL written before it, so a smaller batch is a shorter wait for the
 * triggers behind it: at 100 the trigger p99 during the purge matched the load without it, at 500 it
 * was half as much again.
 */
export const PURGE_BATCH = 100;
export const PURGE_PAUSE_RATIO = 1;

/**
 * Retention (docs/retention.md): the purge of delivery history older than each environment's
 * retention, on the worker pool (beside delivery, not in the way of requests).
 */
export const retention: Wiring = (bind, { config, db }) => {
  bind.value(RetentionRepository, new SqlRetentionRepository(db.workerPool));
  bind.factory(PurgeExpiredHistory, [TenancyRepository, RetentionRepository], (t, r) => new PurgeExpiredHistory(t, r, { defaultDays: config.retentionDays, batchSize: PURGE_BATCH, pauseRatio: PURGE_PAUSE_RATIO }));
  bind.factory(ConfigureRetention, [TenancyRepository], (t) => new ConfigureRetention(t, config.retentionDays));
};
