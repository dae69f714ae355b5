import { execFileSync } from 'node:child_process';
import { createSign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedHttpClient } from '../http/guarded-http-client';
import { SesReceiptReader } from './ses-receipt-reader';
import { SnsMessageVerifier } from './sns-message-verifier';

// A self-signed certificate served from a loopback server stands in for SNS's signing certificate;
// the reader is told (as HERALD_SNS_TRUSTED_ORIGIN does) that SNS lives on that origin.
let server: Server;
let origin: string;
let key: string;
const confirmed: string[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sns-cert-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=sns.us-east-1.amazonaws.com'], { stdio: 'ignore' });
  key = readFileSync(`${dir}/key.pem`, 'utf8');
  const cert = readFileSync(`${dir}/cert.pem`, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  server = createServer((req, res) => {
    if (req.url?.endsWith('.pem')) return res.end(cert);
    if (req.url?.startsWith('/?Action=ConfirmSubscription')) {
      confirmed.push(req.url);
      return res.end('<ConfirmSubscriptionResponse/>');
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const FIELDS: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** Signs an SNS message as SNS does: "Name\nvalue\n" for each signed field present, RSA with SHA-1 (v1) or SHA-256 (v2). */
function signed<M extends Record<string, string>>(message: M, version: '1' | '2' = '1') {
  const text = FIELDS[message.Type].filter((f) => f in message).map((f) => `${f}\n${message[f]}\n`).join('');
  const signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256').update(text).sign(key, 'base64');
  return { ...message, SignatureVersion: version, Signature: signature, SigningCertURL: `${origin}/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem` };
}

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:ses-receipts';
const bounce = {
  notificationType: 'Bounce',
  bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: 'recipient@example.com', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }], timestamp: '2016-01-27T14:59:38.237Z', feedbackId: '00000137860315fd-869464a4-8680-4114-98d3-716fe35851f9-000000', reportingMTA: 'dsn; a8-70.smtp-out.amazonses.com' },
  mail: { timestamp: '2016-01-27T14:59:38.237Z', messageId: '00000137860315fd-34208509-5b74-41f3-95c5-22c1edc3c924-000000', source: 'john@example.com', sourceArn: 'arn:aws:ses:us-east-1:888888888888:identity/example.com', sendingAccountId: '123456789012', destination: ['recipient@example.com'] },
};
const notification = { Type: 'Notification', MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324', TopicArn: TOPIC, Message: JSON.stringify(bounce), Timestamp: '2016-01-27T14:59:39.000Z' };

const pinned = { topicArns: `arn:aws:sns:eu-west-1:123456789012:other, ${TOPIC}` };
const http = new GuardedHttpClient(true);
const reader = () => new SesReceiptReader(new SnsMessageVerifier(http, origin), http);
const call = (message: unknown) => ({ url: 'https://herald.example/v1/receipts/i', headers: {}, body: JSON.stringify(message) });

describe('Amazon SES receipts through SNS', () => {
  it.each(['1', '2'] as const)('reads a bounce notification signed with SignatureVersion %s', async (version) => {
    expect(await reader().read(call(signed(notification, version)), pinned)).toMatchObject({
      verified: true,
      receipts: [{ receiptId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324', providerMessageId: '00000137860315fd-34208509-5b74-41f3-95c5-22c1edc3c924-000000', event: 'bounced', detail: 'Amazon SES: Bounce (Permanent/General)' }],
    });
  });

  it('refuses an altered message, a certificate from elsewhere and an unsigned one', async () => {
    const good = signed(notification);
    expect(await reader().read(call({ ...good, Message: good.Message.replace('Permanent', 'Transient') }), pinned)).toMatchObject({ verified: false });
    expect(await reader().read(call({ ...good, SigningCertURL: 'https://attacker.example/cert.pem' }), pinned)).toMatchObject({ verified: false });
    expect(await reader().read(call({ ...notification, SignatureVersion: '1' }), pinned)).toMatchObject({ verified: false });
    expect(await reader().read({ ...call(null), body: '{not json' }, pinned)).toMatchObject({ verified: false });
  });

  it('without an operator endpoint only https certificates on sns.<region>.amazonaws.com are trusted', () => {
    const aws = new SnsMessageVerifier(http);
    expect(aws.trusted('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-x.pem')).toBe(true);
    expect(aws.trusted('http://sns.eu-west-1.amazonaws.com/x.pem')).toBe(false);
    expect(aws.trusted('https://sns.eu-west-1.amazonaws.com.evil.example/x.pem')).toBe(false);
    expect(aws.trusted(`${origin}/x.pem`)).toBe(false);
  });

  it('confirms a signed subscription by calling its SubscribeURL on SNS, and refuses one pointing elsewhere', async () => {
    const confirmation = { Type: 'SubscriptionConfirmation', MessageId: '165545c9-2a5c-472c-8df2-7ff2be2b3b1b', Token: '2336412f37', TopicArn: TOPIC, Message: 'You have chosen to subscribe to the topic', Timestamp: '2012-04-26T20:45:04.751Z' };
    const subscribeUrl = `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=2336412f37`;
    const reading = await reader().read(call(signed({ ...confirmation, SubscribeURL: subscribeUrl })), pinned);
    expect(reading).toEqual({ verified: true, receipts: [] });
    expect(confirmed).toHaveLength(1);
    expect(await reader().read(call(signed({ ...confirmation, SubscribeURL: 'https://attacker.example/?Action=ConfirmSubscription' })), pinned)).toMatchObject({ verified: false });
    const otherTopic = `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent('arn:aws:sns:us-east-1:123456789012:other')}&Token=1`;
    expect(await reader().read(call(signed({ ...confirmation, SubscribeURL: otherTopic })), pinned)).toMatchObject({ verified: false, reason: expect.stringContaining('for this topic') });
    expect(await reader().read(call(signed({ ...confirmation, SubscribeURL: `${origin}/?Action=Unsubscribe&TopicArn=${encodeURIComponent(TOPIC)}` })), pinned)).toMatchObject({ verified: false });
    expect(confirmed).toHaveLength(1);
  });

  it('takes messages only from the topics the integration names', async () => {
    const fromElsewhere = signed({ ...notification, TopicArn: 'arn:aws:sns:us-east-1:999999999999:someone-elses' });
    expect(await reader().read(call(fromElsewhere), pinned)).toMatchObject({ verified: false, reason: expect.stringContaining("not one of the integration's topicArns") });
    expect(await reader().read(call(signed(notification)), {})).toMatchObject({ verified: false, reason: expect.stringContaining('names no topicArns') });
    expect(await reader().read(call(signed(notification)), { topicArns: 'not-an-arn' })).toMatchObject({ verified: false });
  });

  it('acknowledges a signed UnsubscribeConfirmation without re-subscribing', async () => {
    const unsubscribe = { Type: 'UnsubscribeConfirmation', MessageId: '47138184-6831-46b8-8f7c-afc488602d7d', Token: '2336412f37', TopicArn: TOPIC, Message: 'You have chosen to deactivate subscription', Timestamp: '2012-04-26T20:06:41.581Z', SubscribeURL: `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=2336412f37` };
    const before = confirmed.length;
    expect(await reader().read(call(signed(unsubscribe)), pinned)).toEqual({ verified: true, receipts: [] });
    expect(confirmed).toHaveLength(before);
    expect(await reader().read(call({ ...signed(unsubscribe), Message: 'altered' }), pinned)).toMatchObject({ verified: false });
  });
});
