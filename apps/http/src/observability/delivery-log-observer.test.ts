import type { JobOutcome, RunnableJob } from '@herald/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { DeliveryLogObserver } from './delivery-log-observer';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { observer: new DeliveryLogObserver(logger), lines };
}

const job = {
  transactionId: 'tx-1',
  notificationId: 'n-1',
  attempts: 1,
  subscriber: { subscriberId: 'sub-1' },
  workflow: { identifier: 'welcome' },
  step: { stepId: 'mail', type: 'email' },
} as unknown as RunnableJob;

describe('DeliveryLogObserver', () => {
  it('warns once per failed provider attempt and once per failed step, naming where it happened', () => {
    const { observer, lines } = capture();
    const outcome: JobOutcome = {
      job,
      status: 'failed',
      providerId: 'ses',
      details: [
        { status: 'Failed', source: 'Credentials', detail: 'provider error: sendgrid: 503', providerId: 'sendgrid' },
        { status: 'Failed', source: 'Credentials', detail: 'provider error: ses: invalid credentials', providerId: 'ses' },
      ],
    };
    observer.recorded([outcome]);
    const where = { level: 40, transactionId: 'tx-1', notificationId: 'n-1', subscriberId: 'sub-1', workflow: 'welcome', step: 'mail', stepType: 'email' };
    expect(lines).toEqual([
      expect.objectContaining({ ...where, msg: 'provider attempt failed', provider: 'sendgrid', reason: 'provider error: sendgrid: 503' }),
      expect.objectContaining({ ...where, msg: 'provider attempt failed', provider: 'ses', reason: 'provider error: ses: invalid credentials' }),
      expect.objectContaining({ ...where, msg: 'step failed', provider: 'ses', reason: 'provider error: ses: invalid credentials' }),
    ]);
  });

  it('warns about a failed attempt of a step that runs again later, and a failed step without a provider', () => {
    const { observer, lines } = capture();
    observer.recorded([
      { job, status: 'delayed', rerunAt: new Date(), details: [{ status: 'Failed', source: 'Credentials', detail: 'timeout', providerId: 'sendgrid' }] },
      { job, status: 'failed', details: [{ status: 'Failed', source: 'Payload', detail: 'template error' }] },
      { job, status: 'completed', details: [{ status: 'Success', source: 'Internal', detail: 'sent', providerId: 'sendgrid' }] },
    ]);
    expect(lines.map((l) => [l.msg, l.provider, l.reason])).toEqual([
      ['provider attempt failed', 'sendgrid', 'timeout'],
      ['step failed', null, 'template error'],
    ]);
  });
});
