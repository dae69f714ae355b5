import type { DeliveryObserver, JobOutcome } from '@herald/domain';
import type { Logger } from 'pino';

/**
 * One structured warn line for every failed provider attempt (an execution detail with status
 * Failed that names a provider) and every failed step, with what an operator needs to find it:
 * transaction, notification, subscriber, workflow, step, provider and reason.
 */
export class DeliveryLogObserver implements DeliveryObserver {
  constructor(private readonly log: Logger) {}

  recorded(outcomes: readonly JobOutcome[]): void {
    for (const outcome of outcomes) {
      const failedAttempts = outcome.details.filter((d) => d.status === 'Failed' && d.providerId);
      const failedStep = outcome.status === 'failed';
      if (!failedAttempts.length && !failedStep) continue;
      const { job } = outcome;
      const where = {
        transactionId: job.transactionId,
        notificationId: job.notificationId,
        subscriberId: job.subscriber.subscriberId,
        workflow: job.workflow.identifier,
        step: job.step.stepId,
        stepType: job.step.type,
        attempt: job.attempts,
      };
      for (const d of failedAttempts) this.log.warn({ ...where, provider: d.providerId, reason: d.detail }, 'provider attempt failed');
      if (failedStep) {
        const reason = [...outcome.details].reverse().find((d) => d.status === 'Failed') ?? outcome.details[outcome.details.length - 1];
        this.log.warn({ ...where, provider: outcome.providerId ?? reason?.providerId ?? null, reason: reason?.detail ?? 'unknown' }, 'step failed');
      }
    }
  }
}
