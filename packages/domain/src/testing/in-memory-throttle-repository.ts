import type { ThrottleEntry, ThrottleRepository } from '../ports/throttle-repository';

/** The ThrottleRepository double: fixed-window counters and each job's place in memory; `throttle-repository-contract.ts` holds it to the SQL adapter's behaviour. */
export class InMemoryThrottleRepository implements ThrottleRepository {
  readonly windows = new Map<string, { count: number; windowEnd: Date }>();
  readonly admissions = new Map<string, { place: number; at: Date }>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  async admit(entries: ThrottleEntry[]): Promise<number[]> {
    return entries.map((e) => {
      const counted = this.admissions.get(e.jobId);
      if (counted) return counted.place;
      const key = [e.workflowId, e.subscriberId, e.throttleKey, e.windowStart.toISOString()].join('\u0000');
      const window = this.windows.get(key) ?? { count: 0, windowEnd: e.windowEnd };
      window.count += 1;
      if (e.windowEnd > window.windowEnd) window.windowEnd = e.windowEnd;
      this.windows.set(key, window);
      this.admissions.set(e.jobId, { place: window.count, at: this.now() });
      return window.count;
    });
  }

  async purge(windowsClosedBefore: Date, admittedBefore: Date): Promise<number> {
    let purged = 0;
    for (const [key, w] of this.windows) if (w.windowEnd < windowsClosedBefore && this.windows.delete(key)) purged++;
    for (const [job, a] of this.admissions) if (a.at < admittedBefore && this.admissions.delete(job)) purged++;
    return purged;
  }
}
