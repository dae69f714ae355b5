import type { ThrottleRepository } from '../../ports/throttle-repository';
import { systemClock, type Clock } from '../../shared/clock';

/** A closed window is kept this long after it closed: a count racing its close still finds it. */
export const CLOSED_WINDOW_GRACE_MS = 60 * 60_000;
/**
 * An admission (a job's place in its window) is kept this long: it matters only while the job's
 * throttle step may run again after a crash, which the work recovery does within minutes.
 */
export const ADMISSION_KEPT_MS = 24 * 60 * 60_000;

/** Housekeeping, run on a schedule: throttle counters of windows that closed no longer decide anything. */
export class PurgeClosedThrottleWindows {
  constructor(
    private readonly throttles: ThrottleRepository,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Returns how many rows were deleted. */
  execute(): Promise<number> {
    const now = this.clock.now().getTime();
    return this.throttles.purge(new Date(now - CLOSED_WINDOW_GRACE_MS), new Date(now - ADMISSION_KEPT_MS));
  }
}
