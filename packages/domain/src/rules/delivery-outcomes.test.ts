import type { ExecutionDetailDraft } from '../entities/delivery';
import type { JobOutcome, RunnableJob } from '../ports/job-repository';
import { describe, expect, it } from 'vitest';
import { deliveryCounts } from './delivery-outcomes';

const job = (type: RunnableJob['step']['type']) => ({ step: { type } }) as RunnableJob;
const failedAt = (providerId: string): ExecutionDetailDraft => ({ status: 'Failed', source: 'Credentials', detail: `provider error: ${providerId}`, providerId });
const sentBy = (providerId: string): ExecutionDetailDraft => ({ status: 'Success', source: 'Internal', detail: `sent via ${providerId}`, providerId });
const summary = (outcome: Omit<JobOutcome, 'job'>, type: RunnableJob['step']['type'] = 'email') =>
  deliveryCounts({ job: job(type), ...outcome }).map((c) => [c.provider, c.outcome, c.reason].filter(Boolean).join(' '));

describe('deliveryCounts', () => {
  it.each([
    ['sent at once', { status: 'completed', providerId: 'sendgrid', details: [sentBy('sendgrid')] }, ['sendgrid sent']],
    ['retried then sent', { status: 'completed', providerId: 'sendgrid', details: [failedAt('sendgrid'), sentBy('sendgrid')] }, ['sendgrid retried', 'sendgrid sent']],
    ['failed over', { status: 'completed', providerId: 'ses', details: [failedAt('sendgrid'), failedAt('sendgrid'), sentBy('ses')] }, ['sendgrid retried', 'sendgrid failed_over', 'ses sent']],
    ['failed for good', { status: 'failed', providerId: 'sendgrid', details: [failedAt('sendgrid')] }, ['sendgrid failed']],
    ['retried in a later run', { status: 'delayed', rerunAt: new Date(), details: [failedAt('sendgrid')] }, ['sendgrid retried']],
    ['failed without a provider', { status: 'failed', details: [{ status: 'Failed', source: 'Credentials', detail: 'no active email integration' }] }, ['none failed']],
    ['skipped by preference', { status: 'skipped', details: [{ status: 'Success', source: 'Internal', detail: 'skipped: preference email disabled by subscriber' }] }, ['none skipped preference']],
    ['skipped without an address', { status: 'skipped', details: [{ status: 'Warning', source: 'Payload', detail: 'skipped: subscriber s has no email address' }] }, ['none skipped no_destination']],
    ['skipped by the skip condition', { status: 'skipped', details: [{ status: 'Success', source: 'Internal', detail: 'skipped: skip condition is true' }] }, ['none skipped skip_condition']],
  ] as const)('%s', (_, outcome, expected) => {
    expect(summary(outcome as unknown as Omit<JobOutcome, 'job'>)).toEqual(expected);
  });

  it('counts channel steps only', () => {
    expect(summary({ status: 'completed', details: [] }, 'http_request')).toEqual([]);
    expect(summary({ status: 'completed', details: [] }, 'delay')).toEqual([]);
  });
});
