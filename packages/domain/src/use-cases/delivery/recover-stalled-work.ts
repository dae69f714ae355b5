import type { JobRepository } from '../../ports/job-repository';

/**
 * Nothing accepted is lost: work whose queue message died with a crashed process (or whose job a
 * crashed worker held) is queued again. Runs at start-up and then periodically in every process.
 */
export class RecoverStalledWork {
  constructor(
    private readonly jobs: JobRepository,
    private readonly idleMs = 10_000,
  ) {}

  execute(idleMs = this.idleMs): Promise<{ events: number; notifications: number }> {
    return this.jobs.requeueStalled(idleMs);
  }
}
