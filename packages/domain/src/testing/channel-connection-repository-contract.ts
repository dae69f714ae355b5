import { describe, expect, it } from 'vitest';
import type { ChannelConnectionOrderBy, NewChannelConnection } from '../ports/channel-connection-repository';
import type { CursorQuery } from '../shared/pagination';
import { all, channelWorld, type ChannelRepositoriesFixture } from './channel-contract-fixture';
import { expectCursorPagination } from './cursor-page-contract';

const connection = (identifier: string, integrationId: string, subscriberRowId: string | null, extra: Partial<NewChannelConnection> = {}): NewChannelConnection => ({
  identifier,
  integrationId,
  subscriberRowId,
  contextKeys: [],
  workspace: { id: 'T1', name: 'Acme' },
  auth: { accessToken: `token-${identifier}` },
  ...extra,
});

/** The behaviour every ChannelConnectionRepository has; run against the in-memory double and the SQL adapter. */
export function channelConnectionRepositoryContract(name: string, setup: () => Promise<ChannelRepositoriesFixture>): void {
  describe(`ChannelConnectionRepository contract: ${name}`, () => {
    it('creates and finds a connection with its decrypted auth and its integration, and refuses a taken identifier', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, ada } = await channelWorld(fixture, env);
      const created = await fixture.connections.create(env, connection('c-1', slack.id, ada.id, { contextKeys: ['tenant:acme'], auth: { accessToken: 'xoxb-1', refreshToken: 'r' } }));
      expect(created).toMatchObject({
        environmentId: env,
        identifier: 'c-1',
        integrationId: slack.id,
        integrationIdentifier: 'slack-main',
        providerId: 'slack',
        channel: 'chat',
        subscriberId: 'ada',
        contextKeys: ['tenant:acme'],
        workspace: { id: 'T1', name: 'Acme' },
        auth: { accessToken: 'xoxb-1', refreshToken: 'r' },
      });
      expect(await fixture.connections.findByIdentifier(env, 'c-1')).toEqual(created);
      expect(await fixture.connections.create(env, connection('shared', slack.id, null))).toMatchObject({ subscriberId: null });
      expect(await fixture.connections.create(env, connection('c-1', slack.id, null))).toBeNull();
      expect(await fixture.connections.findByIdentifier(env, 'unknown')).toBeNull();
    });

    it('keeps environments apart', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const { slack } = await channelWorld(fixture, env);
      const theirs = await channelWorld(fixture, other);
      await fixture.connections.create(env, connection('c-1', slack.id, null));
      expect(await fixture.connections.create(other, connection('c-1', theirs.slack.id, null))).toMatchObject({ environmentId: other });
      await fixture.connections.delete(other, 'c-1');
      expect(await fixture.connections.findByIdentifier(other, 'c-1')).toBeNull();
      expect(await fixture.connections.update(other, 'c-1', { auth: { accessToken: 'x' } })).toBeNull();
      expect((await fixture.connections.list(other, {}, all)).data).toEqual([]);
      expect(await fixture.connections.findByIdentifier(env, 'c-1')).toMatchObject({ auth: { accessToken: 'token-c-1' } });
    });

    it('lists by subscriber, integration, provider, channel, exact context and mode, in pages', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, hooks, ada, bob } = await channelWorld(fixture, env);
      await fixture.connections.create(env, connection('ada-slack', slack.id, ada.id, { contextKeys: ['app:web', 'tenant:acme'] }));
      await fixture.connections.create(env, connection('bob-hooks', hooks.id, bob.id));
      await fixture.connections.create(env, connection('shared', slack.id, null, { contextKeys: ['tenant:acme'] }));
      const ids = async (filter: object) => (await fixture.connections.list(env, filter, all)).data.map((c) => c.identifier).sort();
      expect(await ids({ subscriberId: 'ada' })).toEqual(['ada-slack']);
      expect(await ids({ subscriberId: 'nobody' })).toEqual([]);
      expect(await ids({ integrationIdentifier: 'slack-main' })).toEqual(['ada-slack', 'shared']);
      expect(await ids({ providerId: 'chat-webhook' })).toEqual(['bob-hooks']);
      expect(await ids({ channel: 'chat' })).toEqual(['ada-slack', 'bob-hooks', 'shared']);
      expect(await ids({ channel: 'email' })).toEqual([]);
      expect(await ids({ contextKeys: ['tenant:acme'] })).toEqual(['shared']);
      expect(await ids({ connectionMode: 'shared' })).toEqual(['shared']);
      expect(await ids({ connectionMode: 'subscriber' })).toEqual(['ada-slack', 'bob-hooks']);
      const listed = (await fixture.connections.list(env, {}, all)).data;
      const order = [...listed].sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1)).map((c) => c.identifier);
      const list = (query: CursorQuery<ChannelConnectionOrderBy>) => fixture.connections.list(env, {}, query);
      await expectCursorPagination(list, 'createdAt', order, (c) => c.identifier);
    });

    it('replaces workspace or auth, null when not found', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack } = await channelWorld(fixture, env);
      await fixture.connections.create(env, connection('c-1', slack.id, null));
      expect(await fixture.connections.update(env, 'c-1', { auth: { accessToken: 'rotated' } })).toMatchObject({ auth: { accessToken: 'rotated' }, workspace: { id: 'T1', name: 'Acme' } });
      expect(await fixture.connections.update(env, 'c-1', { workspace: { id: 'T2' } })).toMatchObject({ auth: { accessToken: 'rotated' }, workspace: { id: 'T2' } });
      expect(await fixture.connections.update(env, 'unknown', { workspace: { id: 'T2' } })).toBeNull();
    });

    it('deletes once; the endpoints that used it stay, without a connection', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, ada } = await channelWorld(fixture, env);
      const used = (await fixture.connections.create(env, connection('c-1', slack.id, ada.id)))!;
      await fixture.endpoints.create(env, { identifier: 'e-1', integrationId: slack.id, connectionId: used.id, subscriberRowId: ada.id, contextKeys: [], type: 'slack_user', endpoint: { userId: 'U1' } });
      expect(await fixture.connections.delete(env, 'c-1')).toBe(true);
      expect(await fixture.connections.delete(env, 'c-1')).toBe(false);
      expect(await fixture.endpoints.findByIdentifier(env, 'e-1')).toMatchObject({ connectionId: null, connectionIdentifier: null });
    });

    it("routes a subscriber's chat endpoints with the token of their connection, else the subscriber's, else a shared one", async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const { slack, hooks, ada, bob } = await channelWorld(fixture, env);
      const endpoint = (identifier: string, integrationId: string, subscriberRowId: string, connectionId: string | null = null) =>
        fixture.endpoints.create(env, { identifier, integrationId, connectionId, subscriberRowId, contextKeys: [], type: 'slack_channel', endpoint: { channelId: identifier } });
      const own = (await fixture.connections.create(env, connection('own', slack.id, bob.id)))!;
      await fixture.connections.create(env, connection('shared', slack.id, null));
      await fixture.connections.create(env, connection('ada', slack.id, ada.id));
      await endpoint('first', slack.id, ada.id);
      await endpoint('second', slack.id, ada.id, own.id);
      await endpoint('third', hooks.id, ada.id);
      await endpoint('bobs', slack.id, bob.id);
      const routes = await fixture.connections.deliveryRoutes(env, ada.id, [slack.id, hooks.id]);
      expect(routes.map((r) => [r.endpoint.channelId, r.integrationId, r.type, r.accessToken]).sort()).toEqual([
        ['first', slack.id, 'slack_channel', 'token-ada'],
        ['second', slack.id, 'slack_channel', 'token-own'],
        ['third', hooks.id, 'slack_channel', null],
      ]);
      await fixture.connections.delete(env, 'ada');
      expect((await fixture.connections.deliveryRoutes(env, ada.id, [slack.id]))[0].accessToken).toBe('token-shared');
      expect(await fixture.connections.deliveryRoutes(env, ada.id, [])).toEqual([]);
      expect(await fixture.connections.deliveryRoutes(fixture.environments[1], ada.id, [slack.id])).toEqual([]);
    });
  });
}
