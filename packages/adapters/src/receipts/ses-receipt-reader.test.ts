import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedHttpClient } from '../http/guarded-http-client';
import { SesReceiptReader } from './ses-receipt-reader';
import { SnsMessageVerifier } from './sns-message-verifier';
import { startSnsStandIn, type SnsStandIn } from './testing/sns-stand-in';

// A loopback SNS stand-in serves a self-signed signing certificate; the reader is told (as
// HERALD_SNS_TRUSTED_ORIGIN does) that SNS lives on that origin.
let sns: SnsStandIn;
let origin: string;
let confirmed: string[];
beforeAll(async () => {
  sns = await startSnsStandIn();
  ({ origin, confirmed } = sns);
});
afterAll(() => sns.close());
const signed = <M extends Record<string, string>>(message: M, version: '1' | '2' = '1') => sns.sign(message, version);

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
