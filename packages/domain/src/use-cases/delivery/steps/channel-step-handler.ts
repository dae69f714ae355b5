import type { ChannelType } from '../../../entities/channel';
import type { ExecutionDetailDraft } from '../../../entities/delivery';
import type { Integration } from '../../../entities/integration';
import { ProviderError, type OutboundMessage, type ProviderRegistry } from '../../../ports/delivery-provider';
import type { IntegrationRepository } from '../../../ports/integration-repository';
import type { RunnableJob } from '../../../ports/job-repository';
import { evaluateStepFilters } from '../../../rules/evaluate-step-filters';
import { renderStepContent } from '../../../rules/render-step';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

type OutboundChannel = Exclude<ChannelType, 'in_app'>;

/** Where a channel's message goes for a subscriber, or why it cannot go. */
function destination(channel: OutboundChannel, job: RunnableJob): OutboundMessage['to'] | string {
  const s = job.subscriber;
  const base = { subscriberId: s.subscriberId };
  switch (channel) {
    case 'email':
      return s.email ? { ...base, email: s.email } : `subscriber ${s.subscriberId} has no email address`;
    case 'sms':
      return s.phone ? { ...base, phone: s.phone } : `subscriber ${s.subscriberId} has no phone number`;
    case 'chat': {
      const webhookUrl = s.channels.find((c) => c.credentials?.webhookUrl)?.credentials.webhookUrl;
      return webhookUrl ? { ...base, webhookUrl } : `subscriber ${s.subscriberId} has no chat webhook URL in its channel credentials`;
    }
    case 'push': {
      const deviceTokens = s.channels.flatMap((c) => c.credentials?.deviceTokens ?? []);
      return deviceTokens.length ? { ...base, deviceTokens } : `subscriber ${s.subscriberId} has no push device tokens`;
    }
  }
}

/**
 * Email, SMS, chat and push: render, pick the environment's integrations for the channel (primary
 * first, integration conditions honoured), and send; a provider that fails is retried once when the
 * error is transient, then the next integration takes over. Every attempt is an execution detail.
 */
export class ChannelStepHandler implements StepHandler {
  constructor(
    private readonly channel: OutboundChannel,
    private readonly integrations: IntegrationRepository,
    private readonly providers: ProviderRegistry,
  ) {}

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const to = destination(this.channel, job);
    if (typeof to === 'string') return { status: 'skipped', details: [{ status: 'Warning', source: 'Payload', detail: `skipped: ${to}` }] };
    const rendered = await renderStepContent(this.channel, job.step.controlValues, variables);
    if ('error' in rendered) return failed(`template error: ${rendered.error.title}: ${rendered.error.message}`, 'Payload');
    const content = rendered.preview as { subject?: string; body: string };
    const candidates = (await this.candidates(job.environmentId)).filter(
      (integration) => evaluateStepFilters(integration.conditions, { subscriber: variables.subscriber, payload: job.payload }).passed,
    );
    if (!candidates.length) return failed(`no active ${this.channel} integration matches this message`, 'Credentials');
    const message: OutboundMessage = { channel: this.channel, to, subject: content.subject, body: content.body, data: job.payload, transactionId: job.transactionId };
    const details: ExecutionDetailDraft[] = [];
    for (const integration of candidates) {
      const sent = await this.attempt(integration, message, details);
      if (sent) return { ...sent, details };
    }
    return { status: 'failed', details, providerId: candidates[candidates.length - 1].providerId };
  }

  // A batch runs many jobs of one environment: read its integrations once, not once per job.
  private readonly cache = new Map<string, { at: number; integrations: Promise<Integration[]> }>();

  private candidates(environmentId: string): Promise<Integration[]> {
    const hit = this.cache.get(environmentId);
    if (hit && Date.now() - hit.at < 2_000) return hit.integrations;
    const integrations = this.integrations.findDeliveryCandidates(environmentId, this.channel);
    this.cache.set(environmentId, { at: Date.now(), integrations });
    integrations.catch(() => this.cache.delete(environmentId));
    return integrations;
  }

  private async attempt(integration: Integration, message: OutboundMessage, details: ExecutionDetailDraft[]): Promise<Omit<StepResult, 'details'> | null> {
    const provider = this.providers.get(integration.providerId);
    if (!provider) {
      details.push({ status: 'Failed', source: 'Credentials', detail: `provider error: ${integration.providerId} cannot send in this version of Herald`, providerId: integration.providerId });
      return null;
    }
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const receipt = await provider.send(message, integration.credentials);
        details.push({ status: 'Success', source: 'Internal', detail: `sent via ${integration.providerId} (${integration.identifier})`, providerId: integration.providerId, raw: receipt.raw ?? null });
        return {
          status: 'completed',
          providerId: integration.providerId,
          message: {
            channel: this.channel,
            providerId: integration.providerId,
            integrationId: integration.id,
            destination: message.to.email ?? message.to.phone ? { to: message.to.email ?? message.to.phone } : message.to,
            subject: message.subject ?? null,
            body: message.body,
            status: 'sent',
            providerMessageId: receipt.providerMessageId ?? null,
          },
        };
      } catch (error) {
        const retryable = error instanceof ProviderError ? error.retryable : true;
        details.push({
          status: 'Failed',
          source: 'Credentials',
          detail: `provider error: ${integration.providerId}: ${(error as Error).message}${retryable && attempt === 1 ? ' (retrying)' : ''}`,
          providerId: integration.providerId,
          raw: error instanceof ProviderError ? (error.raw ?? null) : null,
        });
        if (!retryable) return null;
      }
    }
    return null;
  }
}
