import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MailgunReceiptReader } from './mailgun-receipt-reader';
import { PostmarkReceiptReader } from './postmark-receipt-reader';
import { sameSignature } from './receipt-reading';
import { SendGridReceiptReader } from './sendgrid-receipt-reader';
import { TwilioReceiptReader } from './twilio-receipt-reader';

// Payloads as each provider's documentation shows them; signatures computed here with each scheme.
const call = (body: string, headers: Record<string, string> = {}, url = 'https://herald.example/v1/receipts/i-1') => ({ url, headers, body });

describe('SendGrid signed Event Webhook (ECDSA P-256 over timestamp + body)', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const verificationKey = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const body = JSON.stringify([
    { email: 'example@test.com', timestamp: 1519267261, 'smtp-id': '<14c5d75ce93.dfd.64b469@ismtpd-555>', event: 'delivered', category: 'cat facts', sg_event_id: 'hqFbp3HH9WxIM0R2-x2M1Q==', sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0', response: '250 OK' },
    { email: 'example@test.com', timestamp: 1519267261, event: 'bounce', reason: '500 unknown recipient', status: '5.0.0', type: 'bounce', sg_event_id: 'X_C_clhwP9kxqr3lUnWtVw==', sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0' },
  ]);
  const signed = (timestamp: string, payload = body) => ({
    'x-twilio-email-event-webhook-timestamp': timestamp,
    'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + payload), privateKey).toString('base64'),
  });
  const reader = new SendGridReceiptReader();

  it('reads each event of a signed batch; the message id is the part of sg_message_id the send answered', async () => {
    const reading = await reader.read(call(body, signed('1519267261')), { signingSecret: verificationKey });
    expect(reading).toMatchObject({ verified: true, receipts: [
      { receiptId: 'hqFbp3HH9WxIM0R2-x2M1Q==', providerMessageId: '14c5d75ce93', event: 'delivered', detail: 'SendGrid: delivered (250 OK)' },
      { receiptId: 'X_C_clhwP9kxqr3lUnWtVw==', providerMessageId: '14c5d75ce93', event: 'bounced' },
    ] });
  });

  it('refuses an altered body, a signature over another timestamp, an unsigned call and a missing key', async () => {
    const headers = signed('1519267261');
    expect(await reader.read(call(body.replace('delivered', 'open'), headers), { signingSecret: verificationKey })).toMatchObject({ verified: false });
    expect(await reader.read(call(body, { ...headers, 'x-twilio-email-event-webhook-timestamp': '1519267262' }), { signingSecret: verificationKey })).toMatchObject({ verified: false });
    expect(await reader.read(call(body), { signingSecret: verificationKey })).toMatchObject({ verified: false });
    expect(await reader.read(call(body, headers), {})).toMatchObject({ verified: false });
    expect(await reader.read(call(body, { ...headers, 'x-twilio-email-event-webhook-signature': '!!' }), { signingSecret: 'not a key' })).toMatchObject({ verified: false });
  });
});

describe('Twilio status callback (X-Twilio-Signature: HMAC-SHA1 of URL + sorted params)', () => {
  const token = '12345';
  const url = 'https://herald.example/v1/receipts/i-1';
  const params = { AccountSid: 'ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', ApiVersion: '2010-04-01', From: '+15017122661', MessageSid: 'SM1342fe1b2c904d1ab04f0fc7a58abca9', MessageStatus: 'undelivered', ErrorCode: '30003', SmsSid: 'SM1342fe1b2c904d1ab04f0fc7a58abca9', SmsStatus: 'undelivered', To: '+15558675310' };
  const body = new URLSearchParams(params).toString();
  const signature = (forUrl: string, key = token) =>
    createHmac('sha1', key).update(forUrl + Object.keys(params).sort().map((k) => k + params[k as keyof typeof params]).join('')).digest('base64');
  const reader = new TwilioReceiptReader();

  it('reads a signed callback: one receipt per message status', async () => {
    const reading = await reader.read(call(body, { 'x-twilio-signature': signature(url) }, url), { token, accountSid: params.AccountSid });
    expect(reading).toMatchObject({ verified: true, receipts: [{ receiptId: 'SM1342fe1b2c904d1ab04f0fc7a58abca9:undelivered', providerMessageId: 'SM1342fe1b2c904d1ab04f0fc7a58abca9', event: 'bounced', detail: 'Twilio: undelivered (error 30003)' }] });
  });

  it('refuses a signature for another URL or token, and another account', async () => {
    expect(await reader.read(call(body, { 'x-twilio-signature': signature(`${url}?x=1`) }, url), { token })).toMatchObject({ verified: false });
    expect(await reader.read(call(body, { 'x-twilio-signature': signature(url, 'other') }, url), { token })).toMatchObject({ verified: false });
    expect(await reader.read(call(body, {}, url), { token })).toMatchObject({ verified: false });
    expect(await reader.read(call(body, { 'x-twilio-signature': signature(url) }, url), { token, accountSid: 'ACother' })).toMatchObject({ verified: false });
  });
});

describe('Mailgun webhooks (HMAC-SHA256 of timestamp + token, with a replay window)', () => {
  const key = 'key-7e55d003b84c0fb0a2ab2f4f8e5b2e11';
  const payload = (timestamp: string, signature?: string) =>
    JSON.stringify({
      signature: { timestamp, token: 'a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0', signature: signature ?? createHmac('sha256', key).update(`${timestamp}a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0`).digest('hex') },
      'event-data': {
        event: 'failed', severity: 'permanent', reason: 'bounce', timestamp: 1529006854.329574, id: 'G9Bn5sl1TC6nu79C8C0bwg', recipient: 'alice@example.com',
        message: { headers: { to: 'Alice <alice@example.com>', 'message-id': '20130503192659.13651.20287@sandbox.mailgun.org', from: 'Bob <bob@sandbox.mailgun.org>', subject: 'Test permanent_fail webhook' } },
        'delivery-status': { code: 605, message: '', description: 'Not delivering to previously bounced address', 'attempt-no': 1 },
      },
    });
  const at = (seconds: number) => new MailgunReceiptReader(() => seconds * 1000);

  it('reads a signed event; the message id gets the angle brackets the send answered with', async () => {
    expect(await at(1529006854).read(call(payload('1529006854')), { signingSecret: key })).toMatchObject({
      verified: true,
      receipts: [{ receiptId: 'G9Bn5sl1TC6nu79C8C0bwg', providerMessageId: '<20130503192659.13651.20287@sandbox.mailgun.org>', event: 'bounced', detail: 'Mailgun: failed (Not delivering to previously bounced address)' }],
    });
  });

  it('refuses a wrong signature, an old (replayed) timestamp and a body that is not JSON', async () => {
    expect(await at(1529006854).read(call(payload('1529006854', 'ab'.repeat(32))), { signingSecret: key })).toMatchObject({ verified: false });
    expect(await at(1529006854 + 3600).read(call(payload('1529006854')), { signingSecret: key })).toMatchObject({ verified: false, reason: expect.stringContaining('old') });
    expect(await at(1529006854).read(call('not json'), { signingSecret: key })).toMatchObject({ verified: false });
    expect(await at(1529006854).read(call(payload('1529006854')), {})).toMatchObject({ verified: false });
  });

  it("takes a subaccount's event by its parent-signature when the integration holds the primary account's key", async () => {
    const primary = 'key-primary-account-0000000000000000';
    const body = JSON.parse(payload('1529006854', 'ab'.repeat(32)));
    body.signature['parent-signature'] = createHmac('sha256', primary).update(`1529006854${body.signature.token}`).digest('hex');
    expect(await at(1529006854).read(call(JSON.stringify(body)), { signingSecret: primary })).toMatchObject({ verified: true, receipts: [{ receiptId: 'G9Bn5sl1TC6nu79C8C0bwg' }] });
    expect(await at(1529006854).read(call(JSON.stringify(body)), { signingSecret: key })).toMatchObject({ verified: false });
  });

  it('takes a signature token again only with the event it came with: another event under it is a replay', async () => {
    const reader = at(1529006854);
    const original = payload('1529006854');
    expect(await reader.read(call(original), { signingSecret: key })).toMatchObject({ verified: true });
    expect(await reader.read(call(original), { signingSecret: key })).toMatchObject({ verified: true });
    const swapped = original.replace('G9Bn5sl1TC6nu79C8C0bwg', 'forged-event-id').replace('"permanent"', '"temporary"');
    expect(await reader.read(call(swapped), { signingSecret: key })).toMatchObject({ verified: false, reason: expect.stringContaining('already used') });
  });
});

describe('Postmark webhooks (basic auth credentials in the webhook URL)', () => {
  const credentials = { user: 'herald', password: 'p4ss-w0rd' };
  const auth = { authorization: `Basic ${Buffer.from('herald:p4ss-w0rd').toString('base64')}` };
  const delivery = JSON.stringify({ MessageID: '883953f4-6105-42a2-a16a-77a8eac79483', Recipient: 'john@example.com', DeliveredAt: '2019-11-05T16:33:54.9070259Z', Details: 'Test delivery webhook details', Tag: 'welcome-email', ServerID: 23, Metadata: { a_key: 'a_value' }, RecordType: 'Delivery', MessageStream: 'outbound' });
  const bounce = JSON.stringify({ RecordType: 'Bounce', ID: 42, Type: 'HardBounce', TypeCode: 1, Name: 'Hard bounce', Tag: 'Test', MessageID: '883953f4-6105-42a2-a16a-77a8eac79483', ServerID: 1234, MessageStream: 'outbound', Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).', Details: 'Test bounce details', Email: 'john@example.com', From: 'sender@example.com', BouncedAt: '2019-11-05T16:33:54.9070259Z', Inactive: true, CanActivate: true, Subject: 'Test subject' });
  const reader = new PostmarkReceiptReader();

  it('reads deliveries and bounces that carry the credentials', async () => {
    expect(await reader.read(call(delivery, auth), credentials)).toMatchObject({ verified: true, receipts: [{ receiptId: 'Delivery:883953f4-6105-42a2-a16a-77a8eac79483:2019-11-05T16:33:54.9070259Z', event: 'delivered' }] });
    expect(await reader.read(call(bounce, auth), credentials)).toMatchObject({ verified: true, receipts: [{ receiptId: 'Bounce:42', providerMessageId: '883953f4-6105-42a2-a16a-77a8eac79483', event: 'bounced' }] });
  });

  it('refuses missing or wrong credentials, and takes none when the integration has none', async () => {
    expect(await reader.read(call(delivery), credentials)).toMatchObject({ verified: false });
    expect(await reader.read(call(delivery, { authorization: `Basic ${Buffer.from('herald:guess').toString('base64')}` }), credentials)).toMatchObject({ verified: false });
    expect(await reader.read(call(delivery, auth), {})).toMatchObject({ verified: false });
    expect(await reader.read(call(delivery, { authorization: `Basic ${Buffer.from('herald:p4ss-w0rd-and-more').toString('base64')}` }), credentials)).toMatchObject({ verified: false });
    expect(await reader.read(call(delivery, { authorization: `Bearer ${Buffer.from('herald:p4ss-w0rd').toString('base64')}` }), credentials)).toMatchObject({ verified: false });
    // The scheme's name is case-insensitive.
    expect(await reader.read(call(delivery, { authorization: auth.authorization.replace('Basic', 'basic') }), credentials)).toMatchObject({ verified: true });
  });
});

describe('sameSignature', () => {
  it('compares digests of both sides, so unequal lengths take the same path as unequal values', () => {
    expect(sameSignature('p4ss-w0rd', 'p4ss-w0rd')).toBe(true);
    expect(sameSignature('p4ss-w0rd', 'p4ss-w0rD')).toBe(false);
    expect(sameSignature('p4ss', 'p4ss-w0rd')).toBe(false);
    expect(sameSignature('', 'p4ss-w0rd')).toBe(false);
  });
});
