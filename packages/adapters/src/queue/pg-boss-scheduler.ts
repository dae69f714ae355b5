import type { Scheduler } from '@herald/domain';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';

/** A running task's process refreshes its heartbeat every half of this (pg-boss's minimum is 10). */
const TASK_HEARTBEAT_SECONDS = 30;

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
    // backstop poll is pg-boss's 30 s). heartbeatSeconds: a run whose process died (kill -9) is failed
    // at pg-boss's next monitor pass (each minute) instead of holding the queue's one active place
    // until it expires in 15 minutes. Both set on queues created before they were, too.
    const live = { notify: true, heartbeatSeconds: TASK_HEARTBEAT_SECONDS };
    await this.boss.createQueue(name, { policy: 'stately', retryLimit: 0, expireInSeconds: 15 * 60, deleteAfterSeconds: 24 * 60 * 60, ...live });
    await this.boss.updateQueue(name, live);
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

  async runNow(name: string): Promise<boolean> {
    // The queue's stately policy keeps one waiting run: a second send is refused (null).
    return (await this.boss.send(name, null)) !== null;
  }
}
