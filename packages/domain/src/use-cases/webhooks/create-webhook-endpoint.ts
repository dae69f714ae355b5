import type { WebhookEndpoint, WebhookEventType } from '../../entities/webhook';
import type { WebhookEndpointRepository } from '../../ports/webhook-endpoint-repository';
import { generateWebhookSecret } from '../../rules/webhook-signature';
import { checkWebhookDescription, checkWebhookEventTypes, checkWebhookUrlLength } from './webhook-endpoint-fields';
import { validateWebhookUrl, type WebhookUrlPolicy } from './webhook-url';

export interface CreateWebhookEndpointInput {
  environmentId: string;
  url: string;
  description?: string | null;
  /** Empty or absent: every event type. */
  eventTypes?: WebhookEventType[];
  enabled?: boolean;
}

/** The new endpoint and its signing secret, which is shown this once and never again. */
export interface CreatedWebhookEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** Subscribes an address to the environment's events, with a signing secret of its own. */
export class CreateWebhookEndpoint {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly policy: WebhookUrlPolicy,
  ) {}

  async execute(input: CreateWebhookEndpointInput): Promise<CreatedWebhookEndpoint> {
    checkWebhookUrlLength(input.url);
    const url = validateWebhookUrl(input.url, this.policy);
    checkWebhookDescription(input.description);
    const eventTypes = checkWebhookEventTypes(input.eventTypes) ?? [];
    const secret = generateWebhookSecret();
    const endpoint = await this.endpoints.insert(input.environmentId, {
      url,
      description: input.description ?? null,
      eventTypes,
      enabled: input.enabled ?? true,
      secret,
    });
    return { endpoint, secret };
  }
}
