import type { WebhookAttempt } from '../../entities/webhook';
import { DomainError } from '../../errors';
import type { WebhookEndpointRepository } from '../../ports/webhook-endpoint-repository';
import type { WebhookAttemptQuery, WebhookOutbox, WebhookReplay } from '../../ports/webhook-outbox';

async function mustExist(endpoints: WebhookEndpointRepository, environmentId: string, id: string): Promise<void> {
  if (!(await endpoints.find(environmentId, id))) throw DomainError.notFound('WEBHOOK_ENDPOINT_NOT_FOUND', 'Webhook endpoint', id);
}

/** An endpoint's delivery log: each attempt with its status, response code, latency and the start of the response. */
export class ListWebhookAttempts {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  async execute(environmentId: string, endpointId: string, query: WebhookAttemptQuery): Promise<WebhookAttempt[]> {
    await mustExist(this.endpoints, environmentId, endpointId);
    return this.outbox.attempts(environmentId, endpointId, query);
  }
}

/** Sends events to an endpoint again (one attempt's, or a time range's), with their original ids. */
export class ReplayWebhookDeliveries {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  async execute(environmentId: string, endpointId: string, which: WebhookReplay): Promise<{ queued: number }> {
    await mustExist(this.endpoints, environmentId, endpointId);
    if ('since' in which && which.since.getTime() >= which.until.getTime()) throw DomainError.field('until', 'must be later than since');
    const queued = await this.outbox.replay(environmentId, endpointId, which);
    if ('attemptId' in which && queued === 0) throw DomainError.notFound('NOT_FOUND', 'Webhook attempt', which.attemptId);
    return { queued };
  }
}
