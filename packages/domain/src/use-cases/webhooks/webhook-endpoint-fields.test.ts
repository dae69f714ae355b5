import { describe, expect, it } from 'vitest';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_SECRET_OVERLAP_MAX_SECONDS, type WebhookEventType } from '../../entities/webhook';
import { DomainError } from '../../errors';
import { InMemoryWebhookEndpointRepository } from '../../testing/in-memory-webhooks';
import { CreateWebhookEndpoint } from './create-webhook-endpoint';
import { RotateWebhookSecret, UpdateWebhookEndpoint } from './webhook-endpoint-queries';

const env = 'env-1';
const policy = { allowPrivateNetworks: false };

async function refusal(work: Promise<unknown>): Promise<{ code: string; fields: string[] }> {
  const error = await work.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  const domain = error as DomainError;
  return { code: domain.code, fields: Object.keys(domain.fields ?? {}) };
}

describe('webhook endpoint limits in the use cases (every caller, not only the HTTP schema)', () => {
  const setup = () => {
    const endpoints = new InMemoryWebhookEndpointRepository();
    return { endpoints, create: new CreateWebhookEndpoint(endpoints, policy), update: new UpdateWebhookEndpoint(endpoints, policy), rotate: new RotateWebhookSecret(endpoints) };
  };

  it('refuses a description, url or event type over the limits on create, naming the field, and stores nothing', async () => {
    const { endpoints, create } = setup();
    const long = 'x'.repeat(WEBHOOK_DESCRIPTION_MAX + 1);
    expect(await refusal(create.execute({ environmentId: env, url: 'https://crm.example/h', description: long }))).toEqual({ code: 'VALIDATION_FAILED', fields: ['description'] });
    expect(await refusal(create.execute({ environmentId: env, url: `https://crm.example/${'a'.repeat(2048)}` }))).toEqual({ code: 'VALIDATION_FAILED', fields: ['url'] });
    expect(await refusal(create.execute({ environmentId: env, url: 'https://crm.example/h', eventTypes: ['message.sent', 'message.exploded' as WebhookEventType] }))).toEqual({ code: 'VALIDATION_FAILED', fields: ['eventTypes'] });
    expect(await endpoints.list(env)).toEqual([]);
    const ok = await create.execute({ environmentId: env, url: 'https://crm.example/h', description: 'x'.repeat(WEBHOOK_DESCRIPTION_MAX), eventTypes: ['message.sent', 'message.sent'] });
    expect(ok.endpoint.eventTypes).toEqual(['message.sent']);
  });

  it('refuses the same on update and leaves the endpoint as it was', async () => {
    const { create, update, endpoints } = setup();
    const { endpoint } = await create.execute({ environmentId: env, url: 'https://crm.example/h', description: 'CRM' });
    expect((await refusal(update.execute(env, endpoint.id, { description: 'y'.repeat(WEBHOOK_DESCRIPTION_MAX + 1) }))).fields).toEqual(['description']);
    expect((await refusal(update.execute(env, endpoint.id, { eventTypes: ['nope' as WebhookEventType] }))).fields).toEqual(['eventTypes']);
    expect((await refusal(update.execute(env, endpoint.id, { url: 'http://crm.example/h' }))).fields).toEqual(['url']);
    expect(await endpoints.find(env, endpoint.id)).toMatchObject({ description: 'CRM', url: 'https://crm.example/h', eventTypes: [] });
  });

  it('refuses an overlap beyond the maximum, negative or fractional on rotation, and keeps the old secret alone', async () => {
    const { create, rotate, endpoints } = setup();
    const { endpoint } = await create.execute({ environmentId: env, url: 'https://crm.example/h' });
    for (const overlapMs of [(WEBHOOK_SECRET_OVERLAP_MAX_SECONDS + 1) * 1000, -1000, 1.5]) {
      expect(await refusal(rotate.execute(env, endpoint.id, overlapMs))).toEqual({ code: 'VALIDATION_FAILED', fields: ['overlapSeconds'] });
    }
    expect((await endpoints.find(env, endpoint.id))?.previousSecretUntil).toBeNull();
    const rotated = await rotate.execute(env, endpoint.id, WEBHOOK_SECRET_OVERLAP_MAX_SECONDS * 1000);
    expect(rotated.endpoint.previousSecretUntil).not.toBeNull();
  });
});
