import { Novu } from '@novu/api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';

let svc: TestService;
let novu: Novu;

const SECRETS = { accountSid: 'AC-secret-sid-7781', token: 'twilio-token-secret-9924', accessToken: 'xoxb-slack-secret-5531' };

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.subscribers.create({ subscriberId: 'alice' });
  await novu.subscribers.create({ subscriberId: 'bob' });
  await novu.integrations.create({ providerId: 'slack', identifier: 'slack-main' });
  await novu.integrations.create({
    providerId: 'twilio',
    identifier: 'twilio-main',
    credentials: { accountSid: SECRETS.accountSid, token: SECRETS.token, from: '+14155550100' },
  });
  await novu.channelConnections.create({
    identifier: 'conn-acme',
    subscriberId: 'alice',
    context: { tenant: 'acme', app: 'web' },
    integrationIdentifier: 'slack-main',
    workspace: { id: 'T001', name: 'Acme' },
    auth: { accessToken: SECRETS.accessToken },
  });
});
afterAll(() => svc?.dispose());

async function errorOf(response: Response) {
  return { status: response.status, fields: Object.keys(((await response.json()) as { errors?: object }).errors ?? {}) };
}

describe('channel connections through the @novu/api SDK', () => {
  it('creates one whose channel and provider come from the integration, and returns its access token', async () => {
    const { result } = await novu.channelConnections.retrieve('conn-acme');
    expect(result).toMatchObject({
      identifier: 'conn-acme',
      channel: 'chat',
      providerId: 'slack',
      integrationIdentifier: 'slack-main',
      subscriberId: 'alice',
      contextKeys: ['app:web', 'tenant:acme'],
      workspace: { id: 'T001', name: 'Acme' },
      auth: { accessToken: SECRETS.accessToken },
    });
    await expect(novu.channelConnections.retrieve('nope')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('lists with exact, order-insensitive contextKeys and the other filters', async () => {
    await novu.channelConnections.create({ identifier: 'conn-shared', context: { tenant: 'acme' }, integrationIdentifier: 'slack-main', workspace: { id: 'T002' }, auth: { accessToken: 'xoxb-2' } });
    const ids = async (request: Parameters<Novu['channelConnections']['list']>[0]) =>
      (await novu.channelConnections.list(request)).result.data.map((c) => c.identifier).sort();
    expect(await ids({ contextKeys: ['tenant:acme', 'app:web'] })).toEqual(['conn-acme']);
    expect(await ids({ contextKeys: ['app:web', 'tenant:acme'] })).toEqual(['conn-acme']);
    expect(await ids({ contextKeys: ['tenant:acme'] })).toEqual(['conn-shared']);
    expect(await ids({ subscriberId: 'alice' })).toEqual(['conn-acme']);
    expect(await ids({ subscriberId: 'nobody' })).toEqual([]);
    expect(await ids({ providerId: 'slack', channel: 'chat' })).toEqual(['conn-acme', 'conn-shared']);
    expect(await ids({ integrationIdentifier: 'twilio-main' })).toEqual([]);
    const first = await novu.channelConnections.list({ limit: 1, orderDirection: 'ASC' });
    expect(first.result).toMatchObject({ totalCount: 2, data: [{ identifier: 'conn-acme' }] });
    const second = await novu.channelConnections.list({ limit: 1, orderDirection: 'ASC', after: first.result.next! });
    expect(second.result.data.map((c) => c.identifier)).toEqual(['conn-shared']);
    expect((await svc.request('/v1/channel-connections?limit=101')).status).toBe(422);
  });

  it('refuses an unknown subscriber or integration, and a taken identifier', async () => {
    const base = { workspace: { id: 'T' }, auth: { accessToken: 't' } };
    const unknownSubscriber = await svc.request('/v1/channel-connections', { method: 'POST', json: { ...base, subscriberId: 'ghost', integrationIdentifier: 'slack-main' } });
    expect(unknownSubscriber.status).toBe(404);
    const unknownIntegration = await svc.request('/v1/channel-connections', { method: 'POST', json: { ...base, integrationIdentifier: 'ghost' } });
    expect(unknownIntegration.status).toBe(404);
    const taken = await svc.request('/v1/channel-connections', { method: 'POST', json: { ...base, identifier: 'conn-acme', integrationIdentifier: 'slack-main' } });
    expect(taken.status).toBe(409);
    expect(await errorOf(await svc.request('/v1/channel-connections', { method: 'POST', json: { integrationIdentifier: 'slack-main', workspace: { id: 'T' }, auth: {} } }))).toEqual({
      status: 422,
      fields: ['auth.accessToken'],
    });
  });
});

describe('channel endpoints through the @novu/api SDK', () => {
  it('creates, retrieves, updates and deletes endpoints', async () => {
    const slack = await novu.channelEndpoints.create({
      identifier: 'ep-slack',
      subscriberId: 'alice',
      context: { app: 'web', tenant: 'acme' },
      integrationIdentifier: 'slack-main',
      connectionIdentifier: 'conn-acme',
      type: 'slack_channel',
      endpoint: { channelId: 'C123' },
    });
    expect(slack.result).toMatchObject({
      identifier: 'ep-slack',
      channel: 'chat',
      providerId: 'slack',
      integrationIdentifier: 'slack-main',
      connectionIdentifier: 'conn-acme',
      subscriberId: 'alice',
      contextKeys: ['app:web', 'tenant:acme'],
      type: 'slack_channel',
      endpoint: { channelId: 'C123' },
    });
    const phone = await novu.channelEndpoints.create({ identifier: 'ep-phone', subscriberId: 'bob', integrationIdentifier: 'twilio-main', type: 'phone', endpoint: { phoneNumber: '+447700900123' } });
    expect(phone.result).toMatchObject({ channel: 'sms', providerId: 'twilio', connectionIdentifier: null, contextKeys: [] });

    const updated = await novu.channelEndpoints.update({ endpoint: { phoneNumber: '+447700900999' } }, 'ep-phone');
    expect(updated.result.endpoint).toEqual({ phoneNumber: '+447700900999' });
    const badUpdate = await errorOf(await svc.request('/v1/channel-endpoints/ep-phone', { method: 'PATCH', json: { endpoint: { phoneNumber: '12' } } }));
    expect(badUpdate).toEqual({ status: 422, fields: ['endpoint.phoneNumber'] });
    expect((await novu.channelEndpoints.retrieve('ep-phone')).result.endpoint).toEqual({ phoneNumber: '+447700900999' });

    await novu.channelEndpoints.delete('ep-phone');
    await expect(novu.channelEndpoints.retrieve('ep-phone')).rejects.toMatchObject({ statusCode: 404 });
    expect((await svc.request('/v1/channel-endpoints/ep-phone', { method: 'DELETE' })).status).toBe(404);
  });

  it('lists with exact, order-insensitive contextKeys and the other filters', async () => {
    await novu.channelEndpoints.create({ identifier: 'ep-list-1', subscriberId: 'bob', context: { tenant: 'acme' }, integrationIdentifier: 'twilio-main', type: 'phone', endpoint: { phoneNumber: '+15005550006' } });
    await novu.channelEndpoints.create({ identifier: 'ep-list-2', subscriberId: 'bob', context: { tenant: 'acme', app: 'web' }, integrationIdentifier: 'slack-main', type: 'slack_user', endpoint: { userId: 'U9' } });
    const ids = async (request: Parameters<Novu['channelEndpoints']['list']>[0]) =>
      (await novu.channelEndpoints.list(request)).result.data.map((e) => e.identifier).sort();
    expect(await ids({ contextKeys: ['tenant:acme', 'app:web'] })).toEqual(['ep-list-2', 'ep-slack']);
    expect(await ids({ contextKeys: ['app:web', 'tenant:acme'] })).toEqual(['ep-list-2', 'ep-slack']);
    expect(await ids({ contextKeys: ['tenant:acme'] })).toEqual(['ep-list-1']);
    expect(await ids({ subscriberId: 'bob', channel: 'chat' })).toEqual(['ep-list-2']);
    expect(await ids({ providerId: 'twilio' })).toEqual(['ep-list-1']);
    expect(await ids({ integrationIdentifier: 'slack-main', subscriberId: 'alice' })).toEqual(['ep-slack']);
    expect(await ids({ connectionIdentifier: 'conn-acme' })).toEqual(['ep-slack']);
    const page = await novu.channelEndpoints.list({ limit: 2, orderDirection: 'ASC' });
    expect(page.result.data).toHaveLength(2);
    expect(page.result.totalCount).toBe(3);
    expect(page.result.next).not.toBeNull();
  });

  it('answers 422 for an address that does not fit its type or integration, 404 for unknown references', async () => {
    const body = { subscriberId: 'alice', integrationIdentifier: 'twilio-main', type: 'phone', endpoint: { phoneNumber: '555-0100' } };
    expect(await errorOf(await svc.request('/v1/channel-endpoints', { method: 'POST', json: body }))).toEqual({ status: 422, fields: ['endpoint.phoneNumber'] });
    await expect(novu.channelEndpoints.create({ ...body, type: 'phone', endpoint: { phoneNumber: '555' } })).rejects.toMatchObject({ statusCode: 422 });
    const webhook = { ...body, type: 'webhook', integrationIdentifier: 'slack-main', endpoint: { url: 'not a url' } };
    expect(await errorOf(await svc.request('/v1/channel-endpoints', { method: 'POST', json: webhook }))).toEqual({ status: 422, fields: ['endpoint.url'] });
    const mismatch = { ...body, integrationIdentifier: 'slack-main', endpoint: { phoneNumber: '+14155550123' } };
    expect(await errorOf(await svc.request('/v1/channel-endpoints', { method: 'POST', json: mismatch }))).toEqual({ status: 422, fields: ['type'] });
    const badType = { ...body, type: 'carrier_pigeon' };
    expect(await errorOf(await svc.request('/v1/channel-endpoints', { method: 'POST', json: badType }))).toEqual({ status: 422, fields: ['type'] });

    const valid = { ...body, endpoint: { phoneNumber: '+14155550123' } };
    expect((await svc.request('/v1/channel-endpoints', { method: 'POST', json: { ...valid, subscriberId: 'ghost' } })).status).toBe(404);
    expect((await svc.request('/v1/channel-endpoints', { method: 'POST', json: { ...valid, integrationIdentifier: 'ghost' } })).status).toBe(404);
    expect((await svc.request('/v1/channel-endpoints', { method: 'POST', json: { ...valid, connectionIdentifier: 'ghost' } })).status).toBe(404);
    const otherIntegration = await errorOf(await svc.request('/v1/channel-endpoints', { method: 'POST', json: { ...valid, connectionIdentifier: 'conn-acme' } }));
    expect(otherIntegration).toEqual({ status: 422, fields: ['connectionIdentifier'] });

    const created = await svc.request('/v1/channel-endpoints', { method: 'POST', json: { ...valid, subscriberId: 'carol', createSubscriberIfMissing: true } });
    expect(created.status).toBe(201);
    expect((await novu.subscribers.retrieve('carol')).result.subscriberId).toBe('carol');
  });

  it('keeps endpoints when their connection is deleted', async () => {
    await novu.channelConnections.create({ identifier: 'conn-temp', integrationIdentifier: 'slack-main', workspace: { id: 'T9' }, auth: { accessToken: 'xoxb-9' } });
    await novu.channelEndpoints.create({ identifier: 'ep-temp', subscriberId: 'alice', integrationIdentifier: 'slack-main', connectionIdentifier: 'conn-temp', type: 'slack_user', endpoint: { userId: 'U1' } });
    await novu.channelConnections.delete('conn-temp');
    await expect(novu.channelConnections.retrieve('conn-temp')).rejects.toMatchObject({ statusCode: 404 });
    expect((await novu.channelEndpoints.retrieve('ep-temp')).result.connectionIdentifier).toBeNull();
  });
});

describe('secrets at rest', () => {
  it('stores no credential or access token in plain text', async () => {
    const db = new pg.Client({ connectionString: svc.databaseUrl });
    await db.connect();
    try {
      const rows = await db.query<{ row: string }>(
        `SELECT row_to_json(i)::text AS row FROM integrations i UNION ALL SELECT row_to_json(c)::text FROM channel_connections c`,
      );
      expect(rows.rows.length).toBeGreaterThan(5);
      const dump = rows.rows.map((r) => r.row).join('\n');
      expect(dump).toContain('conn-acme');
      for (const secret of Object.values(SECRETS)) expect(dump).not.toContain(secret);
      const twilio = await db.query<{ credentials: string }>(`SELECT credentials FROM integrations WHERE identifier = 'twilio-main'`);
      expect(twilio.rows[0].credentials).toMatch(/^v2\.[\w-]+\./); // v2.<key id>.<iv>.<tag>.<data>
    } finally {
      await db.end();
    }
    // ...while the API still hands the connection's token back, as the interface says.
    expect((await novu.channelConnections.retrieve('conn-acme')).result.auth.accessToken).toBe(SECRETS.accessToken);
  });
});
