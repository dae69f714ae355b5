import type { IdempotencyStore } from '../../ports/idempotency-store';
import { systemClock, type Clock } from '../../shared/clock';

/** Housekeeping, run on a schedule: expired keys are already reusable, this reclaims their rows. */
export class PurgeExpiredIdempotencyKeys {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Returns how many records were deleted. */
  execute(): Promise<number> {
    return this.store.purgeExpired(this.clock.now());
  }
}
