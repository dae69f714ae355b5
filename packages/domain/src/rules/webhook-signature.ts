import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The prefix Standard Webhooks gives secrets (the library keeps its own copy private). */
const PREFIX = 'whsec_';

/** A new endpoint secret as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The Standard Webhooks headers of one attempt: `webhook-id`, `webhook-timestamp`, `webhook-signature`. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs a body with every given secret (two during a rotation's overlap), space-separated as the
 * specification allows, so a receiver that knows either secret accepts it. The signature covers
 * the id and the timestamp too: a receiver rejects a replay of an old request by its timestamp.
 */
export function signWebhook(secrets: readonly string[], id: string, at: Date, body: string): WebhookHeaders {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
}

/** Whether a string is a secret `signWebhook` can use (a `whsec_` prefix and non-empty base64). */
export function isWebhookSecret(value: string): boolean {
  try {
    new Webhook(value);
    return value.startsWith(PREFIX);
  } catch {
    return false;
  }
}
