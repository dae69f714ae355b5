import { describe, expect, it } from 'vitest';
import type { ChannelType } from '../../../entities/channel';
import { DEFAULT_RETRY_POLICY } from '../../../entities/retry-policy';
import { ProviderError, type DeliveryProvider, type OutboundMessage } from '../../../ports/delivery-provider';
import type { RunnableJob } from '../../../ports/job-repository';
import { InMemoryIntegrationRepository } from '../../../testing/in-memory-integration-repository';
import { ChannelStepHandler } from './channel-step-handler';
import type { StepVariables } from './step-handler';

const ENV = 'env';
const subscriber = { id: 'row-1', subscriberId: 'ada', email: 'ada@example.com', phone: null, channels: [{ providerId: 'fcm', _integrationId: 'x', credentials: { deviceTokens: ['good', 'stale'] } }] };

function job(type: ChannelType, overrides: Record<string, unknown> = {}, controlValues: Record<string, unknown> = { subject: 'Order {{payload.id}}', body: 'Hi {{subscriber.firstName}}' }): RunnableJob {
  return { jobId: 'job-1', environmentId: ENV, transactionId: 'tx', attempts: 1, deliveryState: null, step: { type, controlValues, filters: [] }, subscriber, payload: { id: 'A-1' }, overrides } as unknown as RunnableJob;
}
const variables = { payload: { id: 'A-1' }, subscriber: { firstName: 'Ada' }, steps: {}, context: {} } as StepVariables;

async function setup(integrations: Array<{ providerId: string; channel: ChannelType; primary?: boolean }>, provider: (providerId: string) => DeliveryProvider) {
  const repo = new InMemoryIntegrationRepository();
  for (const i of integrations) {
    await repo.create(ENV, { providerId: i.providerId, identifier: i.providerId, name: i.providerId, channel: i.channel, kind: 'delivery', credentials: {}, configurations: {}, active: true, primary: i.primary ?? false, conditions: [] });
  }
  const removed: string[][] = [];
  const handler = (channel: Exclude<ChannelType, 'in_app'>) =>
    new ChannelStepHandler(channel, {
      integrations: repo,
      providers: { get: provider },
      tenancy: { findEnvironment: async () => null },
      defaultPolicy: { ...DEFAULT_RETRY_POLICY, jitter: 0 },
      sinks: new Set(['herald-email']),
      subscribers: { removeDeviceTokens: async (_env, _row, tokens) => (removed.push(tokens), tokens.length) },
    });
  return { handler, removed };
}

const sent: OutboundMessage[] = [];
const ok = (id: string): DeliveryProvider => ({ send: async (m) => (sent.push(m), { providerMessageId: `${id}-1` }) });

describe('ChannelStepHandler', () => {
  it('never falls back to the development sink when a real integration exists; retries the real one later', async () => {
    const down: DeliveryProvider = { send: async () => Promise.reject(new ProviderError('answered 503', true)) };
    const { handler } = await setup([{ providerId: 'herald-email', channel: 'email', primary: true }, { providerId: 'sendgrid', channel: 'email' }], (id) => (id === 'sendgrid' ? down : ok(id)));
    const result = await handler('email').run(job('email'), variables);
    expect(result).toMatchObject({ status: 'delayed', providerId: 'sendgrid', deliveryState: { sends: 1, streak: 1 } });
    expect(result.rerunAt!.getTime() - Date.now()).toBeGreaterThan(25_000);
  });

  it('uses the sink when it is the only integration, and passes rendered content, overrides and the job id', async () => {
    const { handler } = await setup([{ providerId: 'herald-email', channel: 'email', primary: true }], ok);
    const result = await handler('email').run(job('email', { email: { replyTo: 'r@x.co' }, providers: { 'herald-email': { cc: 'c@x.co' } } }), variables);
    expect(result).toMatchObject({ status: 'completed', message: { providerId: 'herald-email', providerMessageId: 'herald-email-1', destination: { to: 'ada@example.com' } } });
    expect(sent.at(-1)).toMatchObject({ subject: 'Order A-1', body: 'Hi Ada', idempotencyKey: 'job-1', overrides: { replyTo: 'r@x.co', cc: 'c@x.co' } });
  });

  it("puts what a bridge's code returned for the provider over the trigger's overrides, headers merged and _passthrough.body last", async () => {
    const { handler } = await setup([{ providerId: 'herald-email', channel: 'email', primary: true }], ok);
    const bridged = job('email', { email: { replyTo: 'r@x.co', cc: 'c@x.co', headers: { 'X-Trigger': '1' } } }, { subject: 'Rendered', body: 'By the bridge' });
    bridged.step = {
      ...bridged.step,
      rendered: true,
      providers: {
        'herald-email': { replyTo: 'code@x.co', headers: { 'X-Code': '2' }, _passthrough: { body: { cc: 'pass@x.co' }, headers: { ignored: 'yes' } } },
        sendgrid: { replyTo: 'not-this-provider@x.co' },
      },
    };
    expect((await handler('email').run(bridged, variables)).status).toBe('completed');
    expect(sent.at(-1)).toMatchObject({ subject: 'Rendered', body: 'By the bridge', overrides: { replyTo: 'code@x.co', cc: 'pass@x.co', headers: { 'X-Trigger': '1', 'X-Code': '2' } } });
    expect(sent.at(-1)!.overrides).not.toHaveProperty('_passthrough');
  });

  it('removes device tokens the push provider reported invalid, saying so', async () => {
    const fcm: DeliveryProvider = { send: async () => ({ providerMessageId: 'm-1', invalidDeviceTokens: ['stale'] }) };
    const { handler, removed } = await setup([{ providerId: 'fcm', channel: 'push', primary: true }], () => fcm);
    const result = await handler('push').run(job('push', {}, { subject: 'S', body: 'B' }), variables);
    expect(result.status).toBe('completed');
    expect(removed).toEqual([['stale']]);
    expect(result.details.map((d) => d.detail)).toContain('removed 1 device token(s) fcm reported invalid from subscriber ada');
  });
});
