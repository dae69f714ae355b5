import { SqlRetentionRepository } from '@herald/adapters';
import { ConfigureRetention, PurgeExpiredHistory, RetentionRepository, TenancyRepository } from '@herald/domain';
import type { Wiring } from './binder';

/**
 * Notifications (with their jobs, details and messages) per transaction, and the pause after each
 * batch as a multiple of its time: measured with bench/retention.bench.ts (docs/retention.md).
 */
export const PURGE_BATCH = 500;
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
