import type { ExecutionDetailDraft, JsonObject } from '../../../entities/delivery';
import type { Integration } from '../../../entities/integration';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../../entities/retry-policy';
import { DomainError } from '../../../errors';
import type { OutboundMessage, ProviderRegistry } from '../../../ports/delivery-provider';
import type { ChannelConnectionRepository, ChatRoute } from '../../../ports/channel-connection-repository';
import type { IntegrationRepository } from '../../../ports/integration-repository';
import type { RunnableJob } from '../../../ports/job-repository';
import type { SubscriberRepository } from '../../../ports/subscriber-repository';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { evaluateStepFilters } from '../../../rules/evaluate-step-filters';
import { headerSafe } from '../../../rules/header-safe';
import { renderedStepContent, renderStepContent } from '../../../rules/render-step';
import { recipientFor, providerOverrides, type OutboundChannel } from './channel-recipient';
import type { SendGate } from './send-gate';
import { sendWithFailover, type DeliveryState } from './send-with-failover';
import { failed, type StepHandler, type StepResult, type StepVariables } from './step-handler';

export interface ChannelDelivery {
  integrations: IntegrationRepository;
  providers: ProviderRegistry;
  /** Environments carry their retry policy (null: `defaultPolicy`). */
  tenancy: Pick<TenancyRepository, 'findEnvironment'>;
  defaultPolicy?: RetryPolicy;
  /** Development sinks: used only when the channel has no real integration, never as a failover target. */
  sinks: ReadonlySet<string>;
  /** Chat endpoints and connection tokens of a subscriber (chat steps only). */
  chatRoutes?: Pick<ChannelConnectionRepository, 'deliveryRoutes'>;
  /** Removes device tokens a push provider reported invalid. */
  subscribers?: Pick<SubscriberRepository, 'removeDeviceTokens'>;
  random?: () => number;
  /** Integrations' send rates and connections (SendGate); none: sends go as fast as they come. */
  gate?: SendGate;
}

const CACHE_MS = 2_000;

const auth = (routes: ChatRoute[]) => {
  const accessToken = routes.find((r) => r.accessToken)?.accessToken;
  return accessToken ? { auth: { accessToken } } : {};
};

/**
 * Email, SMS, chat and push: render, pick the environment's integrations for the channel (primary
 * first, integration conditions honoured), and send with retries across time and failover
 * (sendWithFailover). Every attempt is an execution detail.
 */
export class ChannelStepHandler implements StepHandler {
  constructor(
    private readonly channel: OutboundChannel,
    private readonly deps: ChannelDelivery,
  ) {}

  async run(job: RunnableJob, variables: StepVariables): Promise<StepResult> {
    const rendered = job.step.rendered ? renderedStepContent(this.channel, job.step.controlValues) : renderStepContent(this.channel, job.step.controlValues, variables);
    if ('error' in rendered) return failed(`template error: ${rendered.error.title}: ${rendered.error.message}`, 'Payload');
    const content = rendered.preview as { subject?: string; body: string; title?: string };
    const matching = (await this.candidates(job.environmentId)).filter(
      (integration) => evaluateStepFilters(integration.conditions, { subscriber: variables.subscriber, payload: job.payload }).passed,
    );
    if (!matching.length) return failed(`no active ${this.channel} integration matches this message`, 'Credentials');
    const real = matching.filter((i) => !this.deps.sinks.has(i.providerId));
    const usable = real.length ? real : matching;
    const chatRoutes = this.channel === 'chat' && this.deps.chatRoutes
      ? await this.deps.chatRoutes.deliveryRoutes(job.environmentId, job.subscriber.id, usable.map((i) => i.id))
      : [];
    const routesOf = (integration: Integration) => chatRoutes.filter((r) => r.integrationId === integration.id);
    const routed = usable.map((integration) => ({ integration, to: recipientFor(this.channel, job.subscriber, integration, routesOf(integration)) }));
    const candidates = routed.filter((r) => typeof r.to !== 'string');
    if (!candidates.length) return { status: 'skipped', details: [{ status: 'Warning', source: 'Payload', detail: `skipped: ${routed[0].to as string}` }] };
    const recipients = new Map(candidates.map((c) => [c.integration.id, c.to as OutboundMessage['to']]));
    const messageFor = (integration: Integration): OutboundMessage => ({
      channel: this.channel,
      to: recipients.get(integration.id)!,
      subject: content.subject,
      body: content.body,
      data: job.payload,
      transactionId: job.transactionId,
      idempotencyKey: job.jobId,
      overrides: headerSafe(providerOverrides(job.overrides, this.channel, integration.providerId, job.step.providers)),
      ...auth(routesOf(integration)),
    });
    const details: ExecutionDetailDraft[] = [];
    const outcome = await sendWithFailover(
      {
        candidates: candidates.map((c) => c.integration),
        messageFor,
        state: (job.deliveryState as DeliveryState | null) ?? null,
        policy: await this.policy(job.environmentId),
        run: job.attempts,
        now: new Date(),
        random: this.deps.random ?? Math.random,
        gate: this.deps.gate,
      },
      this.deps.providers,
      details,
    );
    await this.removeInvalidTokens(job, outcome.invalidTokens, details);
    if (outcome.kind === 'failed') return { status: 'failed', details, providerId: outcome.providerId };
    if (outcome.kind === 'retry') {
      return { status: 'delayed', details, providerId: outcome.providerId, rerunAt: outcome.rerunAt, deliveryState: outcome.state as unknown as JsonObject };
    }
    const { integration, receipt } = outcome;
    const to = recipients.get(integration.id)!;
    return {
      status: 'completed',
      details,
      providerId: integration.providerId,
      message: {
        channel: this.channel,
        providerId: integration.providerId,
        integrationId: integration.id,
        destination: to.email ?? to.phone ? { to: to.email ?? to.phone } : { ...to },
        subject: content.subject ?? null,
        body: content.body,
        status: 'sent',
        providerMessageId: receipt.providerMessageId ?? null,
      },
    };
  }

  private async removeInvalidTokens(job: RunnableJob, reports: Array<{ providerId: string; tokens: string[] }>, details: ExecutionDetailDraft[]) {
    if (!reports.length || !this.deps.subscribers) return;
    for (const { providerId, tokens } of reports) {
      const removed = await this.deps.subscribers.removeDeviceTokens(job.environmentId, job.subscriber.id, tokens);
      details.push({
        status: 'Warning',
        source: 'Credentials',
        detail: `removed ${removed} device token(s) ${providerId} reported invalid from subscriber ${job.subscriber.subscriberId}`,
        providerId,
      });
    }
  }

  // A batch runs many jobs of one environment: read its integrations and policy once, not once per job.
  private readonly cache = new Map<string, { at: number; integrations: Promise<Integration[]>; policy: Promise<RetryPolicy> }>();

  private entry(environmentId: string) {
    const hit = this.cache.get(environmentId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit;
    // Senders and titles from the credentials end up in headers too: on one line, once per read.
    const integrations = this.deps.integrations
      .findDeliveryCandidates(environmentId, this.channel)
      .then((found) => found.map(headerSafeCredentials));
    const fallback = this.deps.defaultPolicy ?? DEFAULT_RETRY_POLICY;
    const policy = this.deps.tenancy.findEnvironment(environmentId).then((e) => ({ ...fallback, ...(e?.retryPolicy ?? {}) }));
    const entry = { at: Date.now(), integrations, policy };
    this.cache.set(environmentId, entry);
    Promise.all([integrations, policy]).catch(() => this.cache.delete(environmentId));
    return entry;
  }

  private candidates(environmentId: string): Promise<Integration[]> {
    return this.entry(environmentId).integrations;
  }

  private policy(environmentId: string): Promise<RetryPolicy> {
    return this.entry(environmentId).policy;
  }
}

/**
 * The integration with header-safe credentials. One whose credentials cannot be opened is kept as it
 * is: sending through it fails (permanently, so failover moves on), the others still send.
 */
function headerSafeCredentials(integration: Integration): Integration {
  let credentials: Integration['credentials'];
  try {
    credentials = headerSafe(integration.credentials as Record<string, unknown>) as Integration['credentials'];
  } catch (error) {
    if (error instanceof DomainError && error.code === 'CREDENTIALS_UNREADABLE') return integration;
    throw error;
  }
  return { ...integration, credentials };
}
