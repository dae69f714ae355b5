import { token } from '../shared/token';

export const Scheduler = token<Scheduler>('Scheduler');

export interface Scheduler {
  /**
   * Runs `task` on every tick of the cron expression (UTC, minute precision), once per tick across all
   * processes that registered the same `name`, whichever picks it up. Register a name once per process;
   * the latest expression registered anywhere wins. A tick missed while no process ran is skipped. A task
   * that throws is logged, not retried: the next tick runs it again. A run whose process dies holds the
   * task up to about two minutes; then ticks run again.
   */
  every(name: string, cron: string, task: () => Promise<void>): Promise<void>;
  /**
   * Files a run of the task registered as `name` now, for whichever process runs its ticks: false when
   * a run is already waiting (that one will do). Works from a process that registered nothing.
   */
  runNow(name: string): Promise<boolean>;
}
