import { PgBossScheduler, SqlIdempotencyStore } from '@herald/adapters';
import { ClaimIdempotencyKey, IdempotencyStore, PurgeExpiredIdempotencyKeys, Scheduler } from '@herald/domain';
import type { Wiring } from './binder';

/** Idempotency keys, and the scheduler that runs housekeeping such as their purge. */
export const idempotency: Wiring = (bind, { db, boss, logger }) => {
  bind.value(IdempotencyStore, new SqlIdempotencyStore(db.pool));
  bind.value(Scheduler, new PgBossScheduler(boss, logger));
  bind.construct(ClaimIdempotencyKey, [IdempotencyStore]);
  bind.construct(PurgeExpiredIdempotencyKeys, [IdempotencyStore]);
};
