import type { ExecutionDetailDraft, JobOutcome, RunnableJob } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { DeliveryMetricsObserver } from './delivery-metrics-observer';
import { HeraldMetrics, type BacklogReader } from './metrics';

// The counters under test never read the backlog (only the queue gauges do, when scraped).
const noBacklog: BacklogReader = { read: async () => ({ dueSteps: 0, lagSeconds: 0, delayedSteps: 0, openFanouts: 0, openDigests: null }) };

const outcome = (type: RunnableJob['step']['type'], status: JobOutcome['status'], details: ExecutionDetailDraft[] = [], providerId?: string) =>
  ({ job: { step: { type } } as RunnableJob, status, details, providerId }) as JobOutcome;
const skipped = (detail: string) => outcome('email', 'skipped', [{ status: 'Success', source: 'Internal', detail }]);

/** The counters' values by their labels, as Prometheus would scrape them. */
async function values(metrics: HeraldMetrics, name: 'steps' | 'deliveries'): Promise<Record<string, number>> {
  const { values } = await metrics[name].get();
  return Object.fromEntries(values.map((v) => [Object.values(v.labels).join(' '), v.value]));
}

describe('DeliveryMetricsObserver', () => {
  it('adds each batch once to the counters, however many batches share a label set', async () => {
    const metrics = new HeraldMetrics(noBacklog);
    const observer = new DeliveryMetricsObserver(metrics);
    observer.recorded([outcome('in_app', 'completed'), outcome('in_app', 'completed'), skipped('skipped: preference email disabled by subscriber')]);
    observer.recorded([outcome('in_app', 'completed'), outcome('email', 'completed', [], 'sendgrid'), skipped('skipped: subscriber s has no email address')]);
    observer.recorded([]);
    observer.recorded([outcome('delay', 'completed'), skipped('skipped: preference email disabled by subscriber')]);
    expect(await values(metrics, 'steps')).toEqual({ 'in_app completed': 3, 'email skipped': 3, 'email completed': 1, 'delay completed': 1 });
    expect(await values(metrics, 'deliveries')).toEqual({
      'in_app none sent': 3,
      'email none skipped preference': 2,
      'email none skipped no_destination': 1,
      'email sendgrid sent': 1,
    });
  });
});
