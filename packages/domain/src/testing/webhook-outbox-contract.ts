import { describe, expect, it } from 'vitest';
import type { WebhookAttemptResult, WebhookDelivery, WebhookEventDraft } from '../entities/webhook';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookOutbox } from '../ports/webhook-outbox';

export interface WebhookOutboxFixture {
  endpoints: WebhookEndpointRepository;
  outbox: WebhookOutbox;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const HOUR = 3_600_000;
const FAR_PAST = new Date(0);
const secret = (n: number) => `whsec_${Buffer.from(`secret-${n}`).toString('base64')}`;
const draft = (url: string, eventTypes: WebhookEventDraft['type'][] = []) => ({ url, description: null, eventTypes, enabled: true, secret: secret(1) });
const event = (environmentId: string, type: WebhookEventDraft['type'], orderingKey: string, n = 1): WebhookEventDraft => ({ environmentId, type, orderingKey, data: { n } });

function result(d: WebhookDelivery, succeeded: boolean, nextAttemptAt: Date | null = null): WebhookAttemptResult {
  return { deliveryId: d.id, endpointId: d.endpointId, attempt: d.attempts + 1, succeeded, responseStatus: succeeded ? 204 : 500, responseBody: succeeded ? '' : 'down', error: succeeded ? null : 'the endpoint answered 500', durationMs: 12, nextAttemptAt };
}

/** The behaviour of WebhookEndpointRepository and WebhookOutbox; run against the in-memory doubles and PostgreSQL. */
export function webhookOutboxContract(name: string, setup: () => Promise<WebhookOutboxFixture>): void {
  describe(`Webhook endpoints and outbox contract: ${name}`, () => {
    it('keeps endpoints per environment; enabling clears a disable; remove forgets', async () => {
      const { endpoints, environments: [env, other] } = await setup();
      const a = await endpoints.insert(env, { ...draft('https://a.example/hook', ['message.sent']), description: 'CRM' });
      expect(a).toMatchObject({ environmentId: env, url: 'https://a.example/hook', description: 'CRM', eventTypes: ['message.sent'], enabled: true, disabledReason: null, failingSince: null, previousSecretUntil: null });
      expect(a).not.toHaveProperty('secret');
      expect(await endpoints.find(other, a.id)).toBeNull();
      expect(await endpoints.update(other, a.id, { enabled: false })).toBeNull();
      expect(await endpoints.list(other)).toEqual([]);
      const b = await endpoints.insert(env, draft('https://b.example/hook'));
      expect((await endpoints.list(env)).map((e) => e.id)).toEqual([a.id, b.id]);
      expect(await endpoints.update(env, a.id, { enabled: false, eventTypes: [] })).toMatchObject({ enabled: false, eventTypes: [], url: 'https://a.example/hook' });
      expect(await endpoints.remove(other, a.id)).toBe(false);
      expect(await endpoints.remove(env, a.id)).toBe(true);
      expect(await endpoints.find(env, a.id)).toBeNull();
    });

    it('makes one delivery per enabled endpoint of the environment whose filter takes the type', async () => {
      const { endpoints, outbox, environments: [env, other] } = await setup();
      const all = await endpoints.insert(env, draft('https://all.example/'));
      await endpoints.insert(env, draft('https://failed-only.example/', ['message.failed']));
      await endpoints.insert(env, { ...draft('https://off.example/'), enabled: false });
      await endpoints.insert(other, draft('https://other.example/'));
      expect(await outbox.append([event(env, 'message.sent', 'n1')])).toBe(1);
      const [d] = await outbox.claim(10, 60_000);
      expect(d).toMatchObject({ endpointId: all.id, environmentId: env, url: 'https://all.example/', secrets: [secret(1)], type: 'message.sent', attempts: 0 });
      expect(JSON.parse(d.body)).toEqual({ type: 'message.sent', timestamp: expect.any(String), data: { n: 1 } });
      expect(await outbox.claim(10, 60_000)).toEqual([]);
    });

    it('hands out one event per ordering key at a time, in order, and again after a lapsed lease', async () => {
      const { endpoints, outbox, environments: [env] } = await setup();
      await endpoints.insert(env, draft('https://a.example/'));
      await outbox.append([event(env, 'message.sent', 'n1', 1), event(env, 'message.read', 'n1', 2), event(env, 'message.sent', 'n2', 3)]);
      const first = await outbox.claim(10, 0);
      expect(first.map((d) => JSON.parse(d.body).data.n)).toEqual([1, 3]);
      const again = await outbox.claim(10, 60_000);
      expect(again.map((d) => d.id)).toEqual(first.map((d) => d.id));
      expect(await outbox.claim(10, 60_000)).toEqual([]);
      await outbox.record(again.map((d) => result(d, true)), FAR_PAST);
      const next = await outbox.claim(10, 60_000);
      expect(next.map((d) => JSON.parse(d.body).data.n)).toEqual([2]);
    });

    it('reschedules a failed attempt, holds the key behind it, and moves on once the schedule is spent', async () => {
      const { endpoints, outbox, environments: [env] } = await setup();
      const endpoint = await endpoints.insert(env, draft('https://a.example/'));
      await outbox.append([event(env, 'message.sent', 'n1', 1), event(env, 'message.read', 'n1', 2)]);
      const [d] = await outbox.claim(10, 60_000);
      await outbox.record([result(d, false, new Date(Date.now() + HOUR))], FAR_PAST);
      expect(await outbox.claim(10, 60_000)).toEqual([]);
      expect((await outbox.nextDueAt())!.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
      expect(await endpoints.find(env, endpoint.id)).toMatchObject({ enabled: true, failingSince: expect.any(Date) });
      await outbox.record([result({ ...d, attempts: 1 }, false, null)], FAR_PAST);
      const [next] = await outbox.claim(10, 60_000);
      expect(JSON.parse(next.body).data.n).toBe(2);
      const log = await outbox.attempts(env, endpoint.id, { limit: 10 });
      expect(log).toMatchObject([
        { deliveryId: d.id, eventId: d.eventId, eventType: 'message.sent', attempt: 2, succeeded: false, responseStatus: 500, responseBody: 'down', durationMs: 12 },
        { deliveryId: d.id, attempt: 1, succeeded: false, error: 'the endpoint answered 500' },
      ]);
      expect(await outbox.attempts(env, endpoint.id, { limit: 10, before: log[0].id })).toEqual([log[1]]);
      await outbox.record([result(next, true)], FAR_PAST);
      expect(await endpoints.find(env, endpoint.id)).toMatchObject({ failingSince: null });
    });

    it('disables an endpoint failing since the threshold, holds its deliveries, and resumes them when enabled', async () => {
      const { endpoints, outbox, environments: [env, other] } = await setup();
      const endpoint = await endpoints.insert(env, draft('https://a.example/'));
      await outbox.append([event(env, 'message.sent', 'n1')]);
      const [d] = await outbox.claim(10, 60_000);
      const { disabled } = await outbox.record([result(d, false, new Date(Date.now() - 1))], new Date(Date.now() + HOUR));
      expect(disabled).toEqual([endpoint.id]);
      expect(await endpoints.find(env, endpoint.id)).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/failed/) });
      expect(await outbox.claim(10, 60_000)).toEqual([]);
      expect(await outbox.nextDueAt()).toBeNull();
      expect(await outbox.attempts(other, endpoint.id, { limit: 10 })).toEqual([]);
      expect(await endpoints.update(env, endpoint.id, { enabled: true })).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
      expect((await outbox.claim(10, 60_000)).map((x) => x.eventId)).toEqual([d.eventId]);
    });

    it('signs with both secrets during a rotation overlap, and with the new one after', async () => {
      const { endpoints, outbox, environments: [env] } = await setup();
      const endpoint = await endpoints.insert(env, draft('https://a.example/'));
      const rotated = await endpoints.rotateSecret(env, endpoint.id, secret(2), new Date(Date.now() + HOUR));
      expect(rotated?.previousSecretUntil).toBeInstanceOf(Date);
      await outbox.append([event(env, 'message.sent', 'n1')]);
      const [d] = await outbox.claim(10, 60_000);
      expect(d.secrets).toEqual([secret(2), secret(1)]);
      await endpoints.rotateSecret(env, endpoint.id, secret(3), new Date(Date.now() - 1));
      await outbox.append([event(env, 'message.sent', 'n2')]);
      const [e] = await outbox.claim(10, 60_000);
      expect(e.secrets).toEqual([secret(3)]);
    });

    it('replays one attempt or a time range with the original event ids', async () => {
      const { endpoints, outbox, environments: [env, other] } = await setup();
      const endpoint = await endpoints.insert(env, draft('https://a.example/'));
      await outbox.append([event(env, 'message.sent', 'n1', 1), event(env, 'message.sent', 'n2', 2)]);
      const sent = await outbox.claim(10, 60_000);
      await outbox.record(sent.map((d) => result(d, true)), FAR_PAST);
      const [latest] = await outbox.attempts(env, endpoint.id, { limit: 1 });
      expect(await outbox.replay(other, endpoint.id, { attemptId: latest.id })).toBe(0);
      expect(await outbox.replay(env, endpoint.id, { attemptId: latest.id })).toBe(1);
      const [again] = await outbox.claim(10, 60_000);
      expect(again).toMatchObject({ eventId: latest.eventId, attempts: 0 });
      await outbox.record([result(again, true)], FAR_PAST);
      const range = { since: new Date(Date.now() - HOUR), until: new Date(Date.now() + HOUR) };
      expect(await outbox.replay(env, endpoint.id, range)).toBe(2);
      expect((await outbox.claim(10, 60_000)).map((d) => d.eventId).sort()).toEqual(sent.map((d) => d.eventId).sort());
    });
  });
}
