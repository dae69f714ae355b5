import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFake } from './support/http-fake';
import { startProviderFake } from './support/provider-fakes';
import { startService, type TestService } from './support/service';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Issue 45, provider delivery receipts: Herald sends through the real SDKs to loopback fakes, then
// the test calls the receipt route as the provider would, signed with the provider's scheme.
let svc: TestService;
let novu: Novu;
let fake: HttpFake;
let receiver: WebhookReceiver;
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

const route = (value: string) => [{ isNegated: false, type: 'TEXT' as const, value: 'AND' as const, children: [{ field: 'route', value, operator: 'EQUAL' as const, on: 'payload' as const }] }];

beforeAll(async () => {
  [fake, receiver] = await Promise.all([startProviderFake(), startWebhookReceiver()]);
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_METRICS: 'true', HERALD_PROVIDER_ENDPOINTS: JSON.stringify({ sendgrid: fake.url, twilio: fake.url }) });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  receiver.secret = (await (await svc.request('/v1/webhooks/endpoints', { method: 'POST', json: { url: receiver.url, eventTypes: ['message.delivered', 'message.bounced', 'message.failed'] } })).json()).data.secret;
  await novu.subscribers.create({ subscriberId: 'ada', email: 'ada@example.com', phone: '+15550001111' });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'mail' }, [{ type: 'email', stepId: 'mail', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } }]);
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'text' }, [{ type: 'sms', stepId: 'text', controlValues: { body: 'Hi' } }]);
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await Promise.all([fake?.close(), receiver?.close()]);
});

async function integrationId(providerId: string, credentials: Record<string, unknown>): Promise<string> {
  await novu.integrations.create({ providerId, identifier: providerId, name: providerId, credentials, conditions: route(providerId), active: true });
  const { data } = await (await svc.request('/v1/integrations')).json();
  await new Promise((r) => setTimeout(r, 2_100)); // workers read an environment's integrations at most every 2 s
  return data.find((i: { identifier: string }) => i.identifier === providerId)._id;
}

async function send(workflowId: string, transactionId: string, providerId: string) {
  await novu.trigger({ workflowId, to: 'ada', payload: { route: providerId }, transactionId });
  const [step] = (await waitFor(() => finishedSteps(svc.databaseUrl, transactionId), 30_000))!;
  expect(step.status).toBe('completed');
  return step.message!.provider_message_id!;
}

const message = async (providerMessageId: string) => {
  const [row] = await queryDatabase<{ id: string; status: string }>(svc.databaseUrl, 'SELECT id, status FROM messages WHERE provider_message_id = $1', [providerMessageId]);
  const details = await queryDatabase<{ status: string; source: string; detail: string }>(
    svc.databaseUrl, `SELECT d.status, d.source, d.detail FROM execution_details d JOIN messages m ON m.job_id = d.job_id WHERE m.id = $1 AND d.source = 'Webhook' ORDER BY d.seq`, [row.id]);
  return { ...row, details };
};
const post = (id: string, body: string, headers: Record<string, string>) => fetch(`${svc.url}/v1/receipts/${id}`, { method: 'POST', headers, body });
const eventsFor = (type: string, messageId: string) => receiver.accepted.filter((e) => e.type === type && e.data.messageId === messageId);
/** The message's outbound events, once the first has arrived and long enough after it for a duplicate to have come too. */
async function settledEvents(messageId: string) {
  await waitFor(async () => (receiver.accepted.some((e) => e.data.messageId === messageId) ? true : null), 15_000);
  await new Promise((r) => setTimeout(r, 1_500));
  return receiver.accepted.filter((e) => e.data.messageId === messageId);
}
let sendgridIntegration: Promise<string> | undefined;
const sendgrid = () => (sendgridIntegration ??= integrationId('sendgrid', { apiKey: 'SG.key', from: 'shop@herald.test', signingSecret: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') }));
/** SendGrid's Event Webhook headers for `body`: its timestamp, and the ECDSA signature over timestamp + body. */
function sendgridSigned(body: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    'content-type': 'application/json',
    'x-twilio-email-event-webhook-timestamp': timestamp,
    'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + body), privateKey).toString('base64'),
  };
}

describe('provider delivery receipts', () => {
  it('SendGrid: a signed "delivered" sets the status, adds a Webhook detail and emits message.delivered once; a replay changes nothing', async () => {
    const id = await sendgrid();
    const sgId = await send('mail', 'tx-sg', 'sendgrid');
    const body = JSON.stringify([{ email: 'ada@example.com', timestamp: 1519267261, 'smtp-id': '<x@ismtpd-555>', event: 'delivered', sg_event_id: 'hqFbp3HH9WxIM0R2-x2M1Q==', sg_message_id: `${sgId}.filter0001.16648.5515E0B88.0`, response: '250 OK', category: 'cat facts' }]);
    const headers = sendgridSigned(body);

    const forged = await post(id, body.replace('250 OK', '250 Fine'), headers);
    expect(forged.status).toBe(401);
    expect(await message(sgId)).toMatchObject({ status: 'sent', details: [] });

    const first = await post(id, body, headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    const after = await message(sgId);
    expect(after).toMatchObject({ status: 'delivered', details: [{ status: 'Success', source: 'Webhook', detail: 'SendGrid: delivered (250 OK)' }] });
    await waitFor(async () => (eventsFor('message.delivered', after.id).length ? true : null), 15_000);

    const replay = await post(id, body, headers);
    expect(await replay.json()).toEqual({ data: { applied: 0, duplicate: 1, unmatched: 0 } });
    expect((await message(sgId)).details).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(eventsFor('message.delivered', after.id)).toHaveLength(1);
  });

  it('Twilio: a signed status callback over the URL it called bounces the SMS; a bad signature is a 401 and changes nothing', async () => {
    const id = await integrationId('twilio', { accountSid: 'AC-main', token: 'tw-auth-token', from: '+15559990000' });
    const sid = await send('text', 'tx-tw', 'twilio');
    const params = { AccountSid: 'AC-main', ApiVersion: '2010-04-01', ErrorCode: '30003', From: '+15559990000', MessageSid: sid, MessageStatus: 'undelivered', SmsSid: sid, SmsStatus: 'undelivered', To: '+15550001111' };
    const url = `${svc.url}/v1/receipts/${id}`;
    const signature = (token: string) => createHmac('sha1', token).update(url + Object.keys(params).sort().map((k) => k + params[k as keyof typeof params]).join('')).digest('base64');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    expect((await post(id, new URLSearchParams(params).toString(), { ...form, 'x-twilio-signature': signature('guess') })).status).toBe(401);
    expect((await post(id, new URLSearchParams(params).toString(), form)).status).toBe(401);
    expect(await message(sid)).toMatchObject({ status: 'sent', details: [] });

    const ok = await post(id, new URLSearchParams(params).toString(), { ...form, 'x-twilio-signature': signature('tw-auth-token') });
    expect(await ok.json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    const after = await message(sid);
    expect(after).toMatchObject({ status: 'bounced', details: [{ status: 'Failed', source: 'Webhook', detail: 'Twilio: undelivered (error 30003)' }] });
    expect((await settledEvents(after.id)).map((e) => [e.type, e.data.status])).toEqual([['message.bounced', 'bounced']]);
  });

  it('SendGrid: a signed "dropped" fails the message and emits message.failed exactly once; later receipts change nothing', async () => {
    const id = await sendgrid();
    const sgId = await send('mail', 'tx-sg-dropped', 'sendgrid');
    const event = (sgEventId: string, name: string) => ({
      email: 'ada@example.com', timestamp: 1513299569, 'smtp-id': '<14c5d75ce93.dfd.64b469@ismtpd-555>', event: name, category: 'cat facts',
      sg_event_id: sgEventId, sg_message_id: `${sgId}.filter0001.16648.5515E0B88.0`, reason: 'Bounced Address', status: '5.0.0',
    });
    const body = JSON.stringify([event('zmzJhfJgAfUSOW80yEbPyw==', 'dropped')]);
    expect(await (await post(id, body, sendgridSigned(body))).json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    const after = await message(sgId);
    expect(after).toMatchObject({ status: 'failed', details: [{ status: 'Failed', source: 'Webhook', detail: 'SendGrid: dropped (Bounced Address)' }] });
    // The same receipt again, another drop and a late delivery: a failure is final, so no event follows.
    await post(id, body, sendgridSigned(body));
    const later = JSON.stringify([event('another-drop', 'dropped'), event('late-delivery', 'delivered')]);
    expect(await (await post(id, later, sendgridSigned(later))).json()).toEqual({ data: { applied: 2, duplicate: 0, unmatched: 0 } });
    expect((await message(sgId)).status).toBe('failed');
    const events = await settledEvents(after.id);
    expect(events.map((e) => e.type)).toEqual(['message.failed']);
    expect(events[0].data).toMatchObject({ messageId: after.id, status: 'failed', channel: 'email', providerId: 'sendgrid', workflowId: 'mail', subscriberId: 'ada', transactionId: 'tx-sg-dropped' });
  });

  it('an unknown integration is a 404, a receipt for a message of another integration is unmatched; refusals are counted', async () => {
    expect((await post('0190a000-0000-7000-8000-000000000000', '[]', { 'content-type': 'application/json' })).status).toBe(404);
    expect((await post('not-a-uuid', '{', { 'content-type': 'application/json' })).status).toBe(404);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/herald_receipts_total\{provider="sendgrid",outcome="rejected"\} 1/);
    expect(metrics).toMatch(/herald_receipts_total\{provider="twilio",outcome="rejected"\} 2/);
    expect(metrics).toMatch(/herald_receipts_total\{provider="unknown",outcome="unknown_integration"\} 2/);
  });
});
