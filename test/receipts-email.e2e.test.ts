import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fake as mailgunFake } from '../packages/adapters/src/providers/fakes/mailgun.fake';
import { fake as postmarkFake } from '../packages/adapters/src/providers/fakes/postmark.fake';
import { fake as sesFake } from '../packages/adapters/src/providers/fakes/ses.fake';
import type { RunningProviderFake } from '../packages/adapters/src/providers/testing/provider-fake';
import { startSnsStandIn, type SnsStandIn } from '../packages/adapters/src/receipts/testing/sns-stand-in';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps } from './support/workflow-rows';

// Issue 45, provider delivery receipts for Mailgun, Postmark and Amazon SES (through SNS): each
// message is really sent through the provider's loopback fake, then the test calls the receipt
// route as the provider would, with the payload its documentation shows and a real signature,
// and reads the outcome back through the API.
let svc: TestService;
let sns: SnsStandIn;
const fakes: Record<'mailgun' | 'postmark' | 'ses', RunningProviderFake> = {} as never;
const ids: Record<string, string> = {};
const MAILGUN_KEY = 'key-7e55d003b84c0fb0a2ab2f4f8e5b2e11';
const POSTMARK = { user: 'herald-hooks', password: 'p0stmark-hook-pass' };
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:herald-ses-receipts';
const route = (value: string) => [{ isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'route', value, operator: 'EQUAL', on: 'payload' }] }];

beforeAll(async () => {
  [fakes.mailgun, fakes.postmark, fakes.ses, sns] = await Promise.all([mailgunFake.start(), postmarkFake.start(), sesFake.start(), startSnsStandIn()]);
  svc = await startService({
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_METRICS: 'true',
    HERALD_PROVIDER_ENDPOINTS: JSON.stringify({ postmark: fakes.postmark.endpoint, ses: fakes.ses.endpoint }),
    HERALD_SNS_TRUSTED_ORIGIN: sns.origin,
  });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'mail' }, [{ type: 'email', stepId: 'mail', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } }]);
  const receiptCredentials = { mailgun: { signingSecret: MAILGUN_KEY }, postmark: POSTMARK, ses: { topicArns: TOPIC } };
  for (const providerId of ['mailgun', 'postmark', 'ses'] as const) {
    const credentials = { ...fakes[providerId].target.credentials, ...receiptCredentials[providerId] };
    const response = await svc.request('/v1/integrations', { method: 'POST', json: { providerId, identifier: providerId, name: providerId, credentials, conditions: route(providerId), active: true } });
    expect(response.status, await response.clone().text()).toBe(201);
    ids[providerId] = (await response.json()).data._id;
  }
  await new Promise((r) => setTimeout(r, 2_100)); // workers read an environment's integrations at most every 2 s
}, 120_000);
afterAll(async () => {
  await svc?.dispose();
  await Promise.all([...Object.values(fakes).map((f) => f?.close()), sns?.close()]);
});

/** Sends one email through the provider's integration; returns the notification and the id the provider answered. */
async function send(providerId: keyof typeof fakes, transactionId: string) {
  const trigger = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'mail', to: { subscriberId: 'ada', email: 'ada@example.com' }, payload: { route: providerId }, transactionId } });
  expect(trigger.status).toBe(201);
  const notificationId = await waitFor(async () => {
    const { data } = await (await svc.request(`/v1/notifications?transactionId=${transactionId}`)).json();
    return data[0]?._id as string | undefined;
  });
  await waitFor(async () => (await readBack(notificationId)).status === 'sent', 30_000);
  return { notificationId, providerMessageId: fakes[providerId].lastId()! };
}

/** The message's status and its Webhook execution details, as the activity API shows them. */
async function readBack(notificationId: string) {
  const { data } = await (await svc.request(`/v1/notifications/${notificationId}`)).json();
  const [job] = data.jobs as Array<{ message?: { status: string }; executionDetails: Array<{ status: string; source: string; detail: string }> }>;
  return { status: job.message?.status, webhook: job.executionDetails.filter((d) => d.source === 'Webhook').map(({ status, detail }) => ({ status, detail })) };
}

// SNS posts its JSON as text/plain; the others as application/json.
const post = (integrationId: string, body: string, headers: Record<string, string> = {}, base = svc.url) =>
  fetch(`${base}/v1/receipts/${integrationId}`, { method: 'POST', headers: { 'content-type': integrationId === ids.ses ? 'text/plain; charset=UTF-8' : 'application/json', ...headers }, body });

async function expectRefused(response: Response, reason: RegExp) {
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ statusCode: 401, code: 'RECEIPT_NOT_VERIFIED', message: expect.stringMatching(reason) });
}

/** A Mailgun webhook as its documentation shows it, signed now with the webhook signing key. */
function mailgunEvent(eventId: string, messageId: string, event: Record<string, unknown>, key = MAILGUN_KEY) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const token = randomBytes(25).toString('hex');
  const signature = createHmac('sha256', key).update(timestamp + token).digest('hex');
  return JSON.stringify({
    signature: { timestamp, token, signature },
    'event-data': { id: eventId, timestamp: Number(timestamp), recipient: 'ada@example.com', 'log-level': 'info', ...event, message: { headers: { to: 'ada@example.com', 'message-id': messageId.replace(/^<|>$/g, ''), from: 'Shop <shop@herald.test>', subject: 'Hi' } } },
  });
}

describe('Mailgun receipts through the service', () => {
  it('a signed "delivered" delivers the message with a Webhook detail; a wrong signature is a 401 that changes nothing; a replay changes nothing', async () => {
    const { notificationId, providerMessageId } = await send('mailgun', 'tx-mg-delivered');
    const delivered = { event: 'delivered', 'delivery-status': { code: 250, message: 'OK', description: '', 'attempt-no': 1, tls: true } };

    await expectRefused(await post(ids.mailgun, mailgunEvent('CPgfbmQMTCKtHW6uIWtuVe', providerMessageId, delivered, 'key-not-the-signing-key')), /signature does not verify/);
    expect(await readBack(notificationId)).toEqual({ status: 'sent', webhook: [] });

    const body = mailgunEvent('CPgfbmQMTCKtHW6uIWtuVe', providerMessageId, delivered);
    const first = await post(ids.mailgun, body);
    expect(await first.json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(await readBack(notificationId)).toEqual({ status: 'delivered', webhook: [{ status: 'Success', detail: 'Mailgun: delivered' }] });

    expect(await (await post(ids.mailgun, body)).json()).toEqual({ data: { applied: 0, duplicate: 1, unmatched: 0 } });
    // The signature covers only timestamp + token: the same token carrying another event is a replay.
    const swapped = body.replace('CPgfbmQMTCKtHW6uIWtuVe', 'forged-event').replace('"delivered"', '"failed"');
    await expectRefused(await post(ids.mailgun, swapped), /already used for another event/);
    expect(await readBack(notificationId)).toEqual({ status: 'delivered', webhook: [{ status: 'Success', detail: 'Mailgun: delivered' }] });
  });

  it('a signed permanent failure bounces the message', async () => {
    const { notificationId, providerMessageId } = await send('mailgun', 'tx-mg-failed');
    const failed = { event: 'failed', severity: 'permanent', reason: 'bounce', 'delivery-status': { code: 550, message: '5.1.1 The email account that you tried to reach does not exist', description: '', 'attempt-no': 1 } };
    const response = await post(ids.mailgun, mailgunEvent('G9Bn5sl1TC6nu79C8C0bwg', providerMessageId, failed));
    expect(await response.json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(await readBack(notificationId)).toEqual({ status: 'bounced', webhook: [{ status: 'Failed', detail: 'Mailgun: failed (bounce)' }] });
  });
});

describe('Postmark receipts through the service', () => {
  const auth = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  it('a Delivery with the basic auth credentials delivers the message; wrong or missing credentials are a 401 that changes nothing; a replay changes nothing', async () => {
    const { notificationId, providerMessageId } = await send('postmark', 'tx-pm-delivered');
    const delivery = JSON.stringify({ RecordType: 'Delivery', ServerID: 23, MessageStream: 'outbound', MessageID: providerMessageId, Recipient: 'ada@example.com', Tag: 'welcome-email', DeliveredAt: '2026-11-28T16:33:54.9070259Z', Details: 'Test delivery webhook details', Metadata: { a_key: 'a_value' } });

    await expectRefused(await post(ids.postmark, delivery, auth(POSTMARK.user, 'guess')), /basic auth/);
    await expectRefused(await post(ids.postmark, delivery), /basic auth/);
    expect(await readBack(notificationId)).toEqual({ status: 'sent', webhook: [] });

    expect(await (await post(ids.postmark, delivery, auth(POSTMARK.user, POSTMARK.password))).json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(await (await post(ids.postmark, delivery, auth(POSTMARK.user, POSTMARK.password))).json()).toEqual({ data: { applied: 0, duplicate: 1, unmatched: 0 } });
    expect(await readBack(notificationId)).toEqual({ status: 'delivered', webhook: [{ status: 'Success', detail: 'Postmark: Delivery (Test delivery webhook details)' }] });
  });

  it('a HardBounce bounces the message', async () => {
    const { notificationId, providerMessageId } = await send('postmark', 'tx-pm-bounce');
    const bounce = JSON.stringify({ RecordType: 'Bounce', MessageStream: 'outbound', ID: 3719297970, Type: 'HardBounce', TypeCode: 1, Name: 'Hard bounce', Tag: 'Invitation', MessageID: providerMessageId, ServerID: 23, Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).', Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist.', Email: 'ada@example.com', From: 'shop@herald.test', BouncedAt: '2026-11-28T16:34:01Z', DumpAvailable: true, Inactive: true, CanActivate: true, Subject: 'Hi' });
    expect(await (await post(ids.postmark, bounce, auth(POSTMARK.user, POSTMARK.password))).json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(await readBack(notificationId)).toEqual({ status: 'bounced', webhook: [{ status: 'Failed', detail: 'Postmark: Bounce HardBounce (The server was unable to deliver your message (ex: unknown user, mailbox not found).)' }] });
  });
});

describe('Amazon SES receipts through SNS and the service', () => {
  /** An SES notification wrapped in an SNS Notification, as SNS posts it (raw message delivery off). */
  const notification = (messageId: string, ses: Record<string, unknown>, topicArn = TOPIC) => ({
    Type: 'Notification',
    MessageId: randomBytes(16).toString('hex'),
    TopicArn: topicArn,
    Message: JSON.stringify({ ...ses, mail: { timestamp: '2026-11-28T16:59:38.237Z', source: 'shop@herald.test', sourceArn: 'arn:aws:ses:eu-west-1:123456789012:identity/herald.test', sendingAccountId: '123456789012', messageId, destination: ['ada@example.com'] } }),
    Timestamp: new Date().toISOString(),
  });
  const sesDelivery = { notificationType: 'Delivery', delivery: { timestamp: '2026-11-28T16:59:39.101Z', processingTimeMillis: 546, recipients: ['ada@example.com'], smtpResponse: '250 ok:  Message 64111812 accepted', reportingMTA: 'a8-70.smtp-out.amazonses.com', remoteMtaIp: '127.0.2.0' } };
  const sesBounce = { notificationType: 'Bounce', bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: 'ada@example.com', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }], timestamp: '2026-11-28T16:59:39.237Z', feedbackId: '00000137860315fd-869464a4-8680-4114-98d3-716fe35851f9-000000', reportingMTA: 'dsn; a8-70.smtp-out.amazonses.com' } };

  it('confirms the subscription of its topic through SNS, and no other', async () => {
    const confirmation = (topicArn: string) => ({ Type: 'SubscriptionConfirmation', MessageId: randomBytes(16).toString('hex'), Token: '2336412f37fb687f', TopicArn: topicArn, Message: `You have chosen to subscribe to the topic ${topicArn}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`, SubscribeURL: sns.subscribeUrl(topicArn), Timestamp: new Date().toISOString() });
    expect(await (await post(ids.ses, JSON.stringify(sns.sign(confirmation(TOPIC))))).json()).toEqual({ data: { applied: 0, duplicate: 0, unmatched: 0 } });
    expect(sns.confirmed).toEqual([expect.stringContaining(`TopicArn=${encodeURIComponent(TOPIC)}`)]);
    await expectRefused(await post(ids.ses, JSON.stringify(sns.sign(confirmation('arn:aws:sns:eu-west-1:999999999999:strangers'))), { 'x-amz-sns-message-type': 'SubscriptionConfirmation' }), /not one of the integration's topicArns/);
    expect(sns.confirmed).toHaveLength(1);
  });

  it.each(['1', '2'] as const)('a Delivery notification signed with SignatureVersion %s delivers the message; an altered one is a 401 that changes nothing; a replay changes nothing', async (version) => {
    const { notificationId, providerMessageId } = await send('ses', `tx-ses-delivery-${version}`);
    const signed = sns.sign(notification(providerMessageId, sesDelivery), version);

    await expectRefused(await post(ids.ses, JSON.stringify({ ...signed, Message: signed.Message.replace('Delivery', 'Bounce') })), /signature does not verify/);
    expect(await readBack(notificationId)).toEqual({ status: 'sent', webhook: [] });

    expect(await (await post(ids.ses, JSON.stringify(signed))).json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(await (await post(ids.ses, JSON.stringify(signed))).json()).toEqual({ data: { applied: 0, duplicate: 1, unmatched: 0 } });
    expect(await readBack(notificationId)).toEqual({ status: 'delivered', webhook: [{ status: 'Success', detail: 'Amazon SES: Delivery' }] });
  });

  it('a permanent Bounce bounces the message; the same, signed, from another topic is refused, counted and applies nothing', async () => {
    const { notificationId, providerMessageId } = await send('ses', 'tx-ses-bounce');
    const before = await rejectedCount('ses');
    await expectRefused(await post(ids.ses, JSON.stringify(sns.sign(notification(providerMessageId, sesBounce, 'arn:aws:sns:eu-west-1:999999999999:strangers')))), /not one of the integration's topicArns/);
    expect(await rejectedCount('ses')).toBe(before + 1);
    expect(await readBack(notificationId)).toEqual({ status: 'sent', webhook: [] });

    expect(await (await post(ids.ses, JSON.stringify(sns.sign(notification(providerMessageId, sesBounce))))).json()).toEqual({ data: { applied: 1, duplicate: 0, unmatched: 0 } });
    expect(await readBack(notificationId)).toEqual({ status: 'bounced', webhook: [{ status: 'Failed', detail: 'Amazon SES: Bounce (Permanent/General)' }] });
  });

  it('without HERALD_SNS_TRUSTED_ORIGIN a certificate on a loopback (non-AWS) URL is refused', async () => {
    const { notificationId, providerMessageId } = await send('ses', 'tx-ses-untrusted');
    const peer = await svc.startPeer({ HERALD_SNS_TRUSTED_ORIGIN: '' });
    try {
      await expectRefused(await post(ids.ses, JSON.stringify(sns.sign(notification(providerMessageId, sesBounce))), {}, peer.url), /SigningCertURL is not an SNS certificate URL/);
    } finally {
      await peer.dispose();
    }
    expect(await readBack(notificationId)).toEqual({ status: 'sent', webhook: [] });
  });
});

describe('refused calls', () => {
  it('an SES integration refuses topicArns that are not SNS topic ARNs, naming the field', async () => {
    const response = await svc.request(`/v1/integrations/${ids.ses}`, { method: 'PUT', json: { credentials: { ...fakes.ses.target.credentials, topicArns: 'arn:aws:sqs:eu-west-1:123456789012:a-queue' } } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('credentials.topicArns');
  });
});

async function rejectedCount(provider: string): Promise<number> {
  const metrics = await (await fetch(`${svc.url}/metrics`)).text();
  return Number(new RegExp(`herald_receipts_total\\{provider="${provider}",outcome="rejected"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
}
