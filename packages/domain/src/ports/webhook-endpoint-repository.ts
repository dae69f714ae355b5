import { token } from '../shared/token';
import type { WebhookEndpoint, WebhookEventType } from '../entities/webhook';

export const WebhookEndpointRepository = token<WebhookEndpointRepository>('WebhookEndpointRepository');

export interface WebhookEndpointDraft {
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  /** The signing secret (`whsec_...`), stored encrypted and never read back through this port. */
  secret: string;
}

export type WebhookEndpointPatch = Partial<Pick<WebhookEndpointDraft, 'url' | 'description' | 'eventTypes' | 'enabled'>>;

/** An environment's webhook endpoints. Every method is scoped to the environment; another's ids read as not found. */
export interface WebhookEndpointRepository {
  insert(environmentId: string, draft: WebhookEndpointDraft): Promise<WebhookEndpoint>;
  /** null when the environment has no such endpoint. */
  find(environmentId: string, id: string): Promise<WebhookEndpoint | null>;
  /** Oldest first. */
  list(environmentId: string): Promise<WebhookEndpoint[]>;
  /** Applies the given fields; enabling clears `disabledReason` and `failingSince`. null: not found. */
  update(environmentId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpoint | null>;
  /** Removes the endpoint with its pending deliveries and its log; false: not found. */
  remove(environmentId: string, id: string): Promise<boolean>;
  /** Makes `secret` the signing secret; the one it replaces still signs until `previousUntil`. null: not found. */
  rotateSecret(environmentId: string, id: string, secret: string, previousUntil: Date): Promise<WebhookEndpoint | null>;
}
