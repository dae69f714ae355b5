import { execFileSync } from 'node:child_process';
import { createSign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The fields SNS signs for each message type, in order (the SNS documentation's lists). */
const SIGNED: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

export interface SnsStandIn {
  /** Where the stand-in listens: HERALD_SNS_TRUSTED_ORIGIN. */
  origin: string;
  /** A ConfirmSubscription URL on the stand-in for a topic. */
  subscribeUrl(topicArn: string, token?: string): string;
  /** The ConfirmSubscription calls it received (their request URLs). */
  confirmed: string[];
  /** The message signed as SNS signs it, with SigningCertURL on the stand-in (or on `certOrigin`). */
  sign<M extends Record<string, string>>(message: M, version?: '1' | '2', certOrigin?: string): M & { SignatureVersion: string; Signature: string; SigningCertURL: string };
  close(): Promise<void>;
}

/**
 * A loopback stand-in for Amazon SNS: it serves a self-signed signing certificate (made with the
 * system's openssl, CN sns.us-east-1.amazonaws.com), signs messages with its key as SNS does
 * ("Name\nvalue\n" for each signed field present, RSA with SHA-1 for v1 or SHA-256 for v2) and
 * answers ConfirmSubscription.
 */
export async function startSnsStandIn(): Promise<SnsStandIn> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sns-cert-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '1', '-subj', '/CN=sns.us-east-1.amazonaws.com'], { stdio: 'ignore' });
  const key = readFileSync(`${dir}/key.pem`, 'utf8');
  const cert = readFileSync(`${dir}/cert.pem`, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const confirmed: string[] = [];
  const server = createServer((req, res) => {
    if (req.url?.endsWith('.pem')) return res.end(cert);
    if (req.url?.startsWith('/?Action=ConfirmSubscription')) {
      confirmed.push(req.url);
      return res.end('<ConfirmSubscriptionResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"/>');
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    confirmed,
    subscribeUrl: (topicArn, token = '2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92768dd60a747ba6f3beb71854e285d6ad02428b09ceece29417f1f02d609c582afbacc99c583a916b9981dd2728f4ae6fdb82efd087cc3b7849e05798d2d2785c03b0879594eeac82c01f235d0e717736') =>
      `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topicArn)}&Token=${token}`,
    sign(message, version = '1', certOrigin = origin) {
      const text = SIGNED[message.Type].filter((f) => f in message).map((f) => `${f}\n${message[f]}\n`).join('');
      const signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256').update(text).sign(key, 'base64');
      return { ...message, SignatureVersion: version, Signature: signature, SigningCertURL: `${certOrigin}/SimpleNotificationService-f3ecfb7224c7233fe7bb5f59f96de52f.pem` };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
