import type { Scheduler } from '@herald/domain';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';

/**
 * pg-boss's cron: each process keeps the schedule row up to date, pg-boss files one job per tick
 * (deduplicated across processes), and whichever process's worker fetches it runs the task.
 */
export class PgBossScheduler implements Scheduler {
  constructor(
    private readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  async every(name: string, cron: string, task: () => Promise<void>): Promise<void> {
    // stately: at most one run queued and one running, so a slow run cannot pile up ticks behind it.
    // No retry: the next tick is the retry.
    // notify: a tick wakes the worker when it is filed, so the worker needs no 2-second poll (its
    // backstop poll is pg-boss's 30 s). Set on queues created before it was, too.
    await this.boss.createQueue(name, { policy: 'stately', retryLimit: 0, expireInSeconds: 15 * 60, deleteAfterSeconds: 24 * 60 * 60, notify: true });
    await this.boss.updateQueue(name, { notify: true });
    await this.boss.schedule(name, cron, null, { tz: 'UTC' });
    await this.boss.work(name, async () => {
      const started = performance.now();
      try {
        await task();
        this.log.debug({ task: name, durationMs: Math.round(performance.now() - started) }, 'scheduled task ran');
      } catch (err) {
        this.log.error({ err, task: name }, 'scheduled task failed');
        throw err;
      }
    });
  }
}
