import type { WebhookEndpoint, WebhookEventType } from '../../entities/webhook';
import { WEBHOOK_SECRET_OVERLAP_MS } from '../../entities/webhook';
import { DomainError } from '../../errors';
import type { WebhookEndpointRepository } from '../../ports/webhook-endpoint-repository';
import { generateWebhookSecret } from '../../rules/webhook-signature';
import { checkWebhookDescription, checkWebhookEventTypes, checkWebhookOverlapMs, checkWebhookUrlLength } from './webhook-endpoint-fields';
import { validateWebhookUrl, type WebhookUrlPolicy } from './webhook-url';

const notFound = (id: string) => DomainError.notFound('WEBHOOK_ENDPOINT_NOT_FOUND', 'Webhook endpoint', id);

/** Reads and single-step changes of webhook endpoints: one repository call plus not-found handling each. */
export class GetWebhookEndpoint {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async execute(environmentId: string, id: string): Promise<WebhookEndpoint> {
    return (await this.endpoints.find(environmentId, id)) ?? Promise.reject(notFound(id));
  }
}

export class ListWebhookEndpoints {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  execute(environmentId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.list(environmentId);
  }
}

export interface UpdateWebhookEndpointInput {
  url?: string;
  description?: string | null;
  eventTypes?: WebhookEventType[];
  /** true also clears a disable for sustained failures: deliveries resume where they stopped. */
  enabled?: boolean;
}

export class UpdateWebhookEndpoint {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly policy: WebhookUrlPolicy,
  ) {}

  async execute(environmentId: string, id: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> {
    if (input.url !== undefined) checkWebhookUrlLength(input.url);
    const url = input.url === undefined ? undefined : validateWebhookUrl(input.url, this.policy);
    checkWebhookDescription(input.description);
    const patch = { ...input, url, eventTypes: checkWebhookEventTypes(input.eventTypes) };
    return (await this.endpoints.update(environmentId, id, patch)) ?? Promise.reject(notFound(id));
  }
}

export class DeleteWebhookEndpoint {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  async execute(environmentId: string, id: string): Promise<void> {
    if (!(await this.endpoints.remove(environmentId, id))) throw notFound(id);
  }
}

/**
 * Gives the endpoint a new secret, shown this once. The old one keeps signing beside it for
 * `overlapMs` (default a day; 0 ends it at once), so receivers can switch without losing a request.
 */
export class RotateWebhookSecret {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(environmentId: string, id: string, overlapMs = WEBHOOK_SECRET_OVERLAP_MS): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    checkWebhookOverlapMs(overlapMs);
    const secret = generateWebhookSecret();
    const until = new Date(this.now().getTime() + overlapMs);
    const endpoint = await this.endpoints.rotateSecret(environmentId, id, secret, until);
    if (!endpoint) throw notFound(id);
    return { endpoint, secret };
  }
}
