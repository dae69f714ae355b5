import { describe, expect, it } from 'vitest';
import type { ChannelEndpointOrderBy, NewChannelEndpoint } from '../ports/channel-endpoint-repository';
import type { CursorQuery } from '../shared/pagination';
import { all, channelWorld, type ChannelRepositoriesFixture } from './channel-contract-fixture';
import { expectCursorPagination } from './cursor-page-contract';

const endpoint = (identifier: string, integrationId: string, subscriberRowId: string, extra: Partial<NewChannelEndpoint> = {}): NewChannelEndpoint => ({
  identifier,
  integrationId,
  connectionId: null,
  subscriberRowId,
  contextKeys: [],
  type: 'slack_user',
  endpoint: { userId: `U-${identifier}` },
  ...extra,
});

/** The behaviour every ChannelEndpointRepository has; run against the in-memory double and the SQL adapter. */
export function channelEndpointRepositoryContract(name: string, setup: () => Promise<ChannelRepositoriesFixture>): void {
  describe(`ChannelEndpointRepository contract: ${name}`, () => {
    it('creates and finds an endpoint with its integration, connection and subscriber, and refuses a taken identifier', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, ada } = await channelWorld(fixture, env);
      const connection = (await fixture.connections.create(env, { identifier: 'conn', integrationId: slack.id, subscriberRowId: ada.id, contextKeys: [], workspace: { id: 'T' }, auth: { accessToken: 't' } }))!;
      const created = await fixture.endpoints.create(env, endpoint('e-1', slack.id, ada.id, { connectionId: connection.id, contextKeys: ['tenant:acme'] }));
      expect(created).toMatchObject({
        environmentId: env,
        identifier: 'e-1',
        integrationId: slack.id,
        integrationIdentifier: 'slack-main',
        providerId: 'slack',
        channel: 'chat',
        connectionId: connection.id,
        connectionIdentifier: 'conn',
        subscriberId: 'ada',
        contextKeys: ['tenant:acme'],
        type: 'slack_user',
        endpoint: { userId: 'U-e-1' },
      });
      expect(await fixture.endpoints.findByIdentifier(env, 'e-1')).toEqual(created);
      expect(await fixture.endpoints.create(env, endpoint('e-1', slack.id, ada.id))).toBeNull();
      expect(await fixture.endpoints.findByIdentifier(env, 'unknown')).toBeNull();
    });

    it('keeps environments apart', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const mine = await channelWorld(fixture, env);
      const theirs = await channelWorld(fixture, other);
      await fixture.endpoints.create(env, endpoint('e-1', mine.slack.id, mine.ada.id));
      expect(await fixture.endpoints.create(other, endpoint('e-1', theirs.slack.id, theirs.ada.id))).toMatchObject({ environmentId: other });
      expect(await fixture.endpoints.delete(other, 'e-1')).toBe(true);
      expect(await fixture.endpoints.findByIdentifier(other, 'e-1')).toBeNull();
      expect(await fixture.endpoints.updateEndpoint(other, 'e-1', { userId: 'x' })).toBeNull();
      expect((await fixture.endpoints.list(other, {}, all)).data).toEqual([]);
      expect(await fixture.endpoints.findByIdentifier(env, 'e-1')).toMatchObject({ endpoint: { userId: 'U-e-1' } });
    });

    it('lists by subscriber, context, integration, provider, channel and connection, in pages', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, hooks, ada, bob } = await channelWorld(fixture, env);
      const connection = (await fixture.connections.create(env, { identifier: 'conn', integrationId: slack.id, subscriberRowId: null, contextKeys: [], workspace: { id: 'T' }, auth: { accessToken: 't' } }))!;
      await fixture.endpoints.create(env, endpoint('ada-slack', slack.id, ada.id, { connectionId: connection.id, contextKeys: ['app:web', 'tenant:acme'] }));
      await fixture.endpoints.create(env, endpoint('ada-hooks', hooks.id, ada.id, { type: 'webhook', endpoint: { url: 'https://hooks.example/a' } }));
      await fixture.endpoints.create(env, endpoint('bob-slack', slack.id, bob.id, { contextKeys: ['tenant:acme'] }));
      const ids = async (filter: object) => (await fixture.endpoints.list(env, filter, all)).data.map((e) => e.identifier).sort();
      expect(await ids({ subscriberId: 'ada' })).toEqual(['ada-hooks', 'ada-slack']);
      expect(await ids({ subscriberId: 'nobody' })).toEqual([]);
      expect(await ids({ contextKeys: ['tenant:acme'] })).toEqual(['bob-slack']);
      expect(await ids({ integrationIdentifier: 'hooks' })).toEqual(['ada-hooks']);
      expect(await ids({ providerId: 'slack', subscriberId: 'bob' })).toEqual(['bob-slack']);
      expect(await ids({ channel: 'sms' })).toEqual([]);
      expect(await ids({ connectionIdentifier: 'conn' })).toEqual(['ada-slack']);
      expect(await ids({ connectionIdentifier: 'unknown' })).toEqual([]);
      const listed = (await fixture.endpoints.list(env, {}, all)).data;
      const order = [...listed].sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1)).map((e) => e.identifier);
      const list = (query: CursorQuery<ChannelEndpointOrderBy>) => fixture.endpoints.list(env, {}, query);
      await expectCursorPagination(list, 'createdAt', order, (e) => e.identifier);
    });

    it('replaces the address, null when not found; deletes once', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, ada } = await channelWorld(fixture, env);
      const created = (await fixture.endpoints.create(env, endpoint('e-1', slack.id, ada.id)))!;
      const updated = await fixture.endpoints.updateEndpoint(env, 'e-1', { userId: 'U-new' });
      expect(updated).toMatchObject({ id: created.id, endpoint: { userId: 'U-new' } });
      expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
      expect(await fixture.endpoints.updateEndpoint(env, 'unknown', { userId: 'x' })).toBeNull();
      expect(await fixture.endpoints.delete(env, 'e-1')).toBe(true);
      expect(await fixture.endpoints.delete(env, 'e-1')).toBe(false);
      expect(await fixture.endpoints.findByIdentifier(env, 'e-1')).toBeNull();
    });

    it("goes with its subscriber when the subscriber is deleted", async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, ada, bob } = await channelWorld(fixture, env);
      await fixture.endpoints.create(env, endpoint('ada', slack.id, ada.id));
      await fixture.endpoints.create(env, endpoint('bob', slack.id, bob.id));
      await fixture.subscribers.delete(env, 'ada');
      expect((await fixture.endpoints.list(env, {}, all)).data.map((e) => e.identifier)).toEqual(['bob']);
    });
  });
}
