import { describe, expect, it } from 'vitest';
import type { ChannelType } from '../entities/channel';
import type { OutboxRepository } from '../ports/outbox-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';
import { expectCursorPagination } from './cursor-page-contract';

/** A message as delivery stores it; only what the contract varies. */
export interface OutboxSeed {
  channel: ChannelType;
  providerId: string;
  /** As stored: an address string, or an object with `to`, `email` or `phone`. */
  destination: unknown;
  subject?: string;
  transactionId: string;
  createdAt: Date;
}

export interface OutboxRepositoryFixture {
  repo: OutboxRepository;
  subscribers: SubscriberRepository;
  /** Writes one message sent to the subscriber (external id), as the delivery engine does; its id. */
  send(environmentId: string, subscriberId: string, seed: OutboxSeed): Promise<string>;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const SINKS = ['herald-email', 'herald-sms'];
const T0 = Date.UTC(2030, 0, 1);
const minute = (n: number) => new Date(T0 + n * 60_000);
const page = { limit: 50, orderBy: 'createdAt', orderDirection: 'DESC', includeCursor: false } as const;

/** The behaviour every OutboxRepository has; run against the in-memory double and the SQL adapter. */
export function outboxRepositoryContract(name: string, setup: () => Promise<OutboxRepositoryFixture>): void {
  describe(`OutboxRepository contract: ${name}`, () => {
    it("lists the sink providers' messages of the environment, not in-app ones nor other providers'", async () => {
      const { repo, subscribers, send, environments: [env, other] } = await setup();
      for (const e of [env, other]) await subscribers.insert(e, { subscriberId: 'ada' });
      const mail = await send(env, 'ada', { channel: 'email', providerId: 'herald-email', destination: { to: 'ada@example.com' }, subject: 'Hi', transactionId: 't1', createdAt: minute(1) });
      const text = await send(env, 'ada', { channel: 'sms', providerId: 'herald-sms', destination: '+14155550101', transactionId: 't2', createdAt: minute(2) });
      await send(env, 'ada', { channel: 'in_app', providerId: 'herald-email', destination: null, transactionId: 't3', createdAt: minute(3) });
      await send(env, 'ada', { channel: 'email', providerId: 'sendgrid', destination: { to: 'ada@example.com' }, transactionId: 't4', createdAt: minute(4) });
      await send(other, 'ada', { channel: 'email', providerId: 'herald-email', destination: { to: 'ada@example.com' }, transactionId: 't5', createdAt: minute(5) });
      const listed = await repo.list(env, { providerIds: SINKS }, page);
      expect(listed.data).toEqual([
        { id: text, channel: 'sms', providerId: 'herald-sms', to: '+14155550101', subject: null, body: expect.any(String), transactionId: 't2', subscriberId: 'ada', status: 'sent', createdAt: minute(2) },
        { id: mail, channel: 'email', providerId: 'herald-email', to: 'ada@example.com', subject: 'Hi', body: expect.any(String), transactionId: 't1', subscriberId: 'ada', status: 'sent', createdAt: minute(1) },
      ]);
      expect((await repo.list(env, { providerIds: ['herald-sms'] }, page)).data.map((m) => m.id)).toEqual([text]);
    });

    it('filters by address (the string, or its to, email or phone), transaction and subscriber', async () => {
      const { repo, subscribers, send, environments: [env] } = await setup();
      for (const id of ['ada', 'bob']) await subscribers.insert(env, { subscriberId: id });
      const byTo = await send(env, 'ada', { channel: 'email', providerId: 'herald-email', destination: { to: 'x@example.com' }, transactionId: 't1', createdAt: minute(1) });
      const byEmail = await send(env, 'bob', { channel: 'email', providerId: 'herald-email', destination: { email: 'x@example.com' }, transactionId: 't2', createdAt: minute(2) });
      const byPhone = await send(env, 'ada', { channel: 'sms', providerId: 'herald-sms', destination: { phone: '+1555' }, transactionId: 't1', createdAt: minute(3) });
      const byString = await send(env, 'bob', { channel: 'sms', providerId: 'herald-sms', destination: '+1555', transactionId: 't3', createdAt: minute(4) });
      const ids = async (filter: object) => (await repo.list(env, { providerIds: SINKS, ...filter }, page)).data.map((m) => m.id);
      expect(await ids({ to: 'x@example.com' })).toEqual([byEmail, byTo]);
      expect(await ids({ to: '+1555' })).toEqual([byString, byPhone]);
      expect(await ids({ transactionId: 't1' })).toEqual([byPhone, byTo]);
      expect(await ids({ subscriberId: 'bob' })).toEqual([byString, byEmail]);
      expect(await ids({ subscriberId: 'nobody' })).toEqual([]);
      expect(await ids({ to: '+1555', subscriberId: 'ada' })).toEqual([byPhone]);
    });

    it('pages by creation time with cursors', async () => {
      const { repo, subscribers, send, environments: [env] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const ids: string[] = [];
      for (const m of [3, 1, 2, 4]) {
        ids[m] = await send(env, 'ada', { channel: 'email', providerId: 'herald-email', destination: 'a@example.com', transactionId: `t${m}`, createdAt: minute(m) });
      }
      await expectCursorPagination((query) => repo.list(env, { providerIds: SINKS }, query), 'createdAt', [ids[1], ids[2], ids[3], ids[4]], (m) => m.id);
    });
  });
}
