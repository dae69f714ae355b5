import { describe, expect, it } from 'vitest';
import type { StepResult } from '../entities/delivery';
import type { DeliveryObserver } from '../ports/delivery-observer';
import type { JobOutcome, RunnableJob } from '../ports/job-repository';

/** One outcome of each kind a slice holds: an inbox message, a provider failure, a retry, a skip. */
export function sampleOutcomes(): JobOutcome[] {
  const job = (type: RunnableJob['step']['type'], n: number): RunnableJob => ({
    jobId: `00000000-0000-4000-8000-00000000000${n}`,
    notificationId: `00000000-0000-4000-9000-00000000000${n}`,
    environmentId: '00000000-0000-4000-a000-000000000001',
    transactionId: `tx-${n}`,
    attempts: 1,
    leased: type !== 'in_app',
    step: { id: `step-${n}`, stepId: type, name: type, type, active: true, position: 0, controlValues: {}, skip: null, filters: [] },
    workflow: { id: 'wf', identifier: 'wf', name: 'wf', active: true, critical: false, severity: 'none', origin: 'novu-cloud', tags: [], data: null, preferences: {} },
    subscriber: { id: '00000000-0000-4000-b000-000000000001', subscriberId: 'ada', firstName: 'Ada', lastName: null, email: 'ada@example.com', phone: null, avatar: null, locale: null, timezone: null, data: null, channels: [] },
    payload: {},
    overrides: {},
    contextKeys: [],
    deliveryState: null,
    traceContext: null,
    steps: {},
    preferences: { global: null, perWorkflow: null },
  });
  const results: Array<[RunnableJob['step']['type'], StepResult]> = [
    ['in_app', { status: 'completed', details: [{ status: 'Success', source: 'Internal', detail: 'stored' }], message: { channel: 'in_app', providerId: null, integrationId: null, destination: null, subject: null, body: 'hi', status: 'sent' } }],
    ['email', { status: 'failed', providerId: 'sendgrid', halt: true, details: [{ status: 'Failed', source: 'Credentials', detail: 'provider error: 401', providerId: 'sendgrid' }] }],
    ['sms', { status: 'delayed', rerunAt: new Date(Date.now() + 60_000), details: [{ status: 'Failed', source: 'Credentials', detail: 'provider error: 503 (retrying)', providerId: 'twilio' }] }],
    ['delay', { status: 'completed', nextRunAt: new Date(Date.now() + 3_600_000), details: [] }],
    ['custom', { status: 'skipped', details: [{ status: 'Success', source: 'Internal', detail: 'skipped' }] }],
  ];
  return results.map(([type, result], i) => ({ ...result, job: job(type, i + 1) }));
}

/**
 * The behaviour every DeliveryObserver has, on the delivery hot path: `recorded` returns at once
 * (nothing to await), for an empty slice and for a slice of every kind, and never throws.
 */
export function deliveryObserverContract(name: string, setup: () => Promise<DeliveryObserver>): void {
  describe(`DeliveryObserver contract: ${name}`, () => {
    it('hears a slice of every kind and an empty one without throwing or asking to be awaited', async () => {
      const observer = await setup();
      expect(observer.recorded([])).toBeUndefined();
      expect(observer.recorded(sampleOutcomes())).toBeUndefined();
      const large = Array.from({ length: 200 }, () => sampleOutcomes()).flat();
      expect(observer.recorded(large)).toBeUndefined();
    });
  });
}
