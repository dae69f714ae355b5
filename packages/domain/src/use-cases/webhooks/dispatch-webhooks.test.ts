import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { WebhookAttemptResult } from '../../entities/webhook';
import { InMemoryHttpClient, type ServedRequest } from '../../testing/in-memory-http-client';
import { InMemoryWebhookEndpointRepository, InMemoryWebhookOutbox, InMemoryWebhookStore } from '../../testing/in-memory-webhooks';
import { CreateWebhookEndpoint } from './create-webhook-endpoint';
import { DEFAULT_WEBHOOK_DISPATCH, DispatchWebhooks } from './dispatch-webhooks';
import { RotateWebhookSecret } from './webhook-endpoint-queries';

function setup(statuses: number[] = [], allowPrivateNetworks = true) {
  const store = new InMemoryWebhookStore();
  const endpoints = new InMemoryWebhookEndpointRepository(store);
  const outbox = new InMemoryWebhookOutbox(store);
  const http = new InMemoryHttpClient(allowPrivateNetworks);
  const received: ServedRequest[] = [];
  const origin = http.serve((request) => {
    received.push(request);
    return { status: statuses.shift() ?? 204, headers: {}, body: 'x'.repeat(5_000) };
  });
  const seen: { attempted: WebhookAttemptResult[]; disabled: string[] } = { attempted: [], disabled: [] };
  const observer = { attempted: (r: readonly WebhookAttemptResult[]) => seen.attempted.push(...r), disabled: (ids: readonly string[]) => seen.disabled.push(...ids) };
  const dispatch = new DispatchWebhooks(outbox, http, { ...DEFAULT_WEBHOOK_DISPATCH, scheduleMs: [0, 0, 0] }, observer);
  const create = new CreateWebhookEndpoint(endpoints, { allowPrivateNetworks: true });
  return { store, endpoints, outbox, http, received, origin, seen, dispatch, create, env: randomUUID() };
}

describe('DispatchWebhooks', () => {
  it('posts the event signed with the Standard Webhooks headers, which the library verifies', async () => {
    const { outbox, received, origin, seen, dispatch, create, env } = setup();
    const { secret } = await create.execute({ environmentId: env, url: `${origin}/hooks` });
    await outbox.append([{ environmentId: env, type: 'message.failed', orderingKey: 'n1', data: { messageId: 'm1' } }]);
    expect(await dispatch.execute()).toBe(1);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks', headers: { 'content-type': 'application/json', 'webhook-id': expect.stringMatching(/^msg_/) } });
    expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ type: 'message.failed', data: { messageId: 'm1' } });
    expect(seen.attempted).toMatchObject([{ succeeded: true, responseStatus: 204, nextAttemptAt: null }]);
    expect(seen.attempted[0].responseBody).toHaveLength(1_024);
    expect(await dispatch.execute()).toBe(0);
  });

  it('retries after failures with the same id, records each attempt, and gives up when the schedule is spent', async () => {
    const { outbox, received, origin, dispatch, create, env, endpoints } = setup([500, 503, 500, 500]);
    const { endpoint } = await create.execute({ environmentId: env, url: origin });
    await outbox.append([{ environmentId: env, type: 'message.sent', orderingKey: 'n1', data: {} }]);
    for (let i = 0; i < 5; i++) await dispatch.execute();
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const log = await outbox.attempts(env, endpoint.id, { limit: 10 });
    expect(log.map((a) => [a.attempt, a.responseStatus, a.succeeded])).toEqual([[3, 500, false], [2, 503, false], [1, 500, false]]);
    expect((await endpoints.find(env, endpoint.id))?.failingSince).toBeInstanceOf(Date);
  });

  it('records a refused destination as a failed attempt without a response', async () => {
    const { outbox, seen, env, endpoints } = setup();
    const guarded = new DispatchWebhooks(outbox, new InMemoryHttpClient(false), { ...DEFAULT_WEBHOOK_DISPATCH, scheduleMs: [0] });
    await endpoints.insert(env, { url: 'http://10.0.0.1/hook', description: null, eventTypes: [], enabled: true, secret: 'whsec_c2VjcmV0' });
    await outbox.append([{ environmentId: env, type: 'message.sent', orderingKey: 'n1', data: {} }]);
    await guarded.execute();
    const [endpoint] = await endpoints.list(env);
    expect(await outbox.attempts(env, endpoint.id, { limit: 1 })).toMatchObject([{ succeeded: false, responseStatus: null, error: expect.stringMatching(/private/) }]);
    expect(seen.attempted).toEqual([]);
  });

  it('disables an endpoint that keeps failing past the threshold and tells the observer', async () => {
    const { outbox, http, seen, env, create } = setup();
    const down = http.serve(() => ({ status: 500, headers: {}, body: '' }));
    const { endpoint } = await create.execute({ environmentId: env, url: down });
    const strict = new DispatchWebhooks(outbox, http, { ...DEFAULT_WEBHOOK_DISPATCH, scheduleMs: [0, 0], disableAfterMs: 0 }, { attempted: () => {}, disabled: (ids) => seen.disabled.push(...ids) });
    await outbox.append([{ environmentId: env, type: 'message.sent', orderingKey: 'n1', data: {} }]);
    await strict.execute();
    expect(seen.disabled).toEqual([endpoint.id]);
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const { outbox, endpoints, received, origin, dispatch, create, env } = setup();
    const { endpoint, secret: old } = await create.execute({ environmentId: env, url: origin });
    const { secret: fresh } = await new RotateWebhookSecret(endpoints).execute(env, endpoint.id);
    await outbox.append([{ environmentId: env, type: 'message.sent', orderingKey: 'n1', data: {} }]);
    await dispatch.execute();
    for (const s of [old, fresh]) expect(() => new Webhook(s).verify(received[0].body, received[0].headers)).not.toThrow();
  });
});

describe('CreateWebhookEndpoint', () => {
  it('refuses what cannot or must not be delivered, naming the field', async () => {
    const endpoints = new InMemoryWebhookEndpointRepository();
    const create = new CreateWebhookEndpoint(endpoints, { allowPrivateNetworks: false });
    const env = randomUUID();
    for (const url of ['not a url', 'http://hooks.example.com/', 'https://127.0.0.1/x', 'https://localhost/x', 'https://user:pw@hooks.example.com/', 'ftp://hooks.example.com/']) {
      await expect(create.execute({ environmentId: env, url })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fields: { url: expect.anything() } });
    }
    const { endpoint, secret } = await create.execute({ environmentId: env, url: 'https://hooks.example.com/h', eventTypes: ['message.sent', 'message.sent'] });
    expect(endpoint.eventTypes).toEqual(['message.sent']);
    expect(secret).toMatch(/^whsec_/);
  });
});
