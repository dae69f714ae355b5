import { randomUUID } from 'node:crypto';
import type { Integration } from '../../entities/integration';
import { DomainError } from '../../errors';
import { ProviderError, type OutboundMessage, type ProviderRegistry } from '../../ports/delivery-provider';
import type { IntegrationRepository } from '../../ports/integration-repository';
import { headerSafe } from '../../rules/header-safe';

export interface IntegrationTestInput {
  /** An email address, a phone number, a chat webhook URL or channel id, or a push device token: as the integration's channel needs. */
  to: string;
  subject?: string;
  body?: string;
}

/** The provider's answer to one test message: a failure is an answer too, not an error of the request. */
export type IntegrationTestResult =
  | { sent: true; providerId: string; providerMessageId: string | null; raw: string | null }
  | { sent: false; providerId: string; error: string; retryable: boolean; raw: string | null };

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Where the test goes on the integration's channel, or why `to` cannot be that. */
function destination(integration: Integration, to: string): OutboundMessage['to'] {
  const base = { subscriberId: 'integration-test' };
  switch (integration.channel) {
    case 'email':
      if (!EMAIL.test(to)) throw DomainError.field('to', 'must be an email address for an email integration', to);
      return { ...base, email: to };
    case 'sms':
      if (!/^\+?[0-9 ()-]{5,20}$/.test(to)) throw DomainError.field('to', 'must be a phone number for an SMS integration', to);
      return { ...base, phone: to };
    case 'chat':
      return /^https?:\/\//i.test(to) ? { ...base, webhookUrl: to } : { ...base, chatChannel: to };
    case 'push':
      return { ...base, deviceTokens: [to] };
    default:
      throw DomainError.field('integrationId', 'only email, SMS, chat and push integrations send a test message', integration.id);
  }
}

/**
 * Sends one message through one integration, whatever its primary or active state, and answers with
 * what the provider said: the dashboard's "send a test". Nothing is stored (no notification, no job);
 * the credentials are used as delivery uses them and never returned.
 */
export class SendIntegrationTest {
  constructor(
    private readonly integrations: Pick<IntegrationRepository, 'find'>,
    private readonly providers: ProviderRegistry,
    private readonly serviceName: string,
  ) {}

  async execute(environmentId: string, integrationId: string, input: IntegrationTestInput): Promise<IntegrationTestResult> {
    const integration = await this.integrations.find(environmentId, integrationId);
    if (!integration) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', integrationId);
    const to = destination(integration, input.to.trim());
    const provider = this.providers.get(integration.providerId);
    if (!provider) throw DomainError.field('integrationId', `this build cannot send through ${integration.providerId}`, integration.id);
    const id = randomUUID();
    const message: OutboundMessage = {
      channel: integration.channel!,
      to,
      subject: input.subject ?? `Test message from ${this.serviceName}`,
      body: input.body ?? `This is a test of the ${integration.name} integration (${integration.providerId}).`,
      data: {},
      transactionId: id,
      idempotencyKey: id,
      overrides: {},
    };
    try {
      // Senders and titles from the credentials end up in headers, as delivery sends them.
      const receipt = await provider.send(message, headerSafe(integration.credentials as Record<string, unknown>));
      return { sent: true, providerId: integration.providerId, providerMessageId: receipt.providerMessageId ?? null, raw: receipt.raw ?? null };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return { sent: false, providerId: integration.providerId, error: err.message, retryable: err.retryable, raw: err.raw ?? null };
    }
  }
}
