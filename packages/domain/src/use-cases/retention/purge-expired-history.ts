import { addCounts, HISTORY_SOURCES, NO_PURGE_COUNTS, type HistorySource, type PurgeCounts } from '../../entities/retention';
import type { Environment } from '../../entities/tenancy';
import type { PurgeBatch, RetentionRepository } from '../../ports/retention-repository';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { addDays, dayLabel, purgeHorizon } from '../../rules/retention-horizon';
import { systemClock, type Clock } from '../../shared/clock';

export interface RetentionSettings {
  /** Days kept by environments that set none. */
  defaultDays: number;
  /** Rows (notifications or events) per transaction. */
  batchSize: number;
  /**
   * After each batch the purge waits this multiple of the time the batch took, so it never holds the
   * database more than 1 / (1 + pauseRatio) of the time.
   */
  pauseRatio: number;
}

/** Real time for pacing and budgets (not the clock that decides what expired). */
export interface PurgePace {
  elapsedMs(): number;
  pause(ms: number): Promise<void>;
}

export const realTimePace: PurgePace = {
  elapsedMs: () => performance.now(),
  pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface PurgeReport {
  counts: PurgeCounts;
  /** Days done by this run, as `<environment slug> <yyyy-mm-dd>`. */
  purged: string[];
  /** Days this run left keeping rows in flight, with how many. */
  keeping: Array<{ day: string; kept: number }>;
  /** False when the budget ran out with work left (the next run goes on from there). */
  finished: boolean;
}

interface EnvironmentWalk {
  environment: Environment;
  horizon: Date;
  open: Date[];
  from: Date | null;
}

/**
 * Housekeeping, run on a schedule in one process at a time: removes each environment's delivery
 * history older than its retention, a whole UTC day at a time, oldest first, never a notification in
 * flight (see RetentionRepository). Environments take turns a day each. It stops starting batches
 * when `budgetMs` is spent; the next run resumes where it stopped, as the repository keeps the place.
 */
export class PurgeExpiredHistory {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly history: RetentionRepository,
    private readonly settings: RetentionSettings,
    private readonly clock: Clock = systemClock,
    private readonly pace: PurgePace = realTimePace,
  ) {}

  async execute(options: { budgetMs?: number } = {}): Promise<PurgeReport> {
    const started = this.pace.elapsedMs();
    const budget = options.budgetMs ?? Number.POSITIVE_INFINITY;
    const outOfTime = () => this.pace.elapsedMs() - started >= budget;
    const now = this.clock.now();
    const report: PurgeReport = { counts: NO_PURGE_COUNTS, purged: [], keeping: [], finished: false };
    let walks = await Promise.all((await this.tenancy.listEnvironments()).map((e) => this.walk(e, now)));
    while (walks.length) {
      const next: EnvironmentWalk[] = [];
      for (const walk of walks) {
        if (outOfTime()) return report;
        const day = walk.open.shift() ?? (await this.history.oldestDay(walk.environment.id, walk.from, walk.horizon));
        if (!day) continue;
        if (!walk.from || day >= walk.from) walk.from = addDays(day, 1);
        const done = await this.purgeDay(walk.environment.id, day, now, outOfTime, report);
        if (!done) return report;
        const label = `${walk.environment.slug} ${dayLabel(day)}`;
        if (done.state === 'purged') report.purged.push(label);
        else report.keeping.push({ day: label, kept: done.kept });
        next.push(walk);
      }
      walks = next;
    }
    report.finished = true;
    return report;
  }

  private async walk(environment: Environment, now: Date): Promise<EnvironmentWalk> {
    const horizon = purgeHorizon(now, environment.retentionDays ?? this.settings.defaultDays);
    const { open, latest } = await this.history.progress(environment.id);
    return { environment, horizon, open: open.filter((d) => d < horizon), from: latest && addDays(latest, 1) };
  }

  /** Rechecks the day's kept rows, then continues its passes; null when the budget ran out first. */
  private async purgeDay(environmentId: string, day: Date, now: Date, outOfTime: () => boolean, report: PurgeReport) {
    const { batchSize } = this.settings;
    for (const source of HISTORY_SOURCES) {
      let after: string | null = null;
      for (let more = true; more; ) {
        if (outOfTime()) return null;
        const batch = await this.paced(report, () => this.history.recheck(source, environmentId, day, after, batchSize, now));
        after = batch.last;
        more = batch.scanned === batchSize;
      }
      for (let more = true; more; ) {
        if (outOfTime()) return null;
        const batch = await this.paced(report, () => this.pass(source, environmentId, day, now));
        more = batch.scanned === batchSize;
      }
    }
    return this.history.closeDay(environmentId, day, now);
  }

  private pass(source: HistorySource, environmentId: string, day: Date, now: Date) {
    return this.history.purge(source, environmentId, day, this.settings.batchSize, now);
  }

  /** Runs one batch, adds its counts to the report, then waits its share of the time. */
  private async paced<B extends PurgeBatch>(report: PurgeReport, run: () => Promise<B>): Promise<B> {
    const started = this.pace.elapsedMs();
    const batch = await run();
    report.counts = addCounts(report.counts, batch.counts);
    const took = this.pace.elapsedMs() - started;
    if (this.settings.pauseRatio > 0 && batch.scanned) await this.pace.pause(took * this.settings.pauseRatio);
    return batch;
  }
}
