import { createVerify, X509Certificate } from 'node:crypto';
import type { HttpClient } from '@herald/domain';
import { text } from './receipt-reading';

/** The fields SNS signs, in order, for each message type (its documentation's lists). */
const SIGNED: Record<string, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

const AWS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/**
 * Verifies an Amazon SNS message: its signature (SignatureVersion 1: RSA SHA-1, 2: RSA SHA-256)
 * with the certificate at SigningCertURL, which must be an https URL on `sns.<region>.amazonaws.com`
 * ending in `.pem`. `trustedOrigin` (HERALD_SNS_TRUSTED_ORIGIN, a stand-in SNS in tests; refused in
 * production) replaces that rule: then only URLs on that origin are trusted, and no AWS host.
 */
export class SnsMessageVerifier {
  private readonly certificates = new Map<string, Promise<string | null>>();

  constructor(
    private readonly http: HttpClient,
    private readonly trustedOrigin?: string,
  ) {}

  /** Whether a URL SNS gave (certificate, subscription confirmation) is on SNS itself. */
  trusted(value: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (this.trustedOrigin) return url.origin === new URL(this.trustedOrigin).origin;
    return url.protocol === 'https:' && AWS_HOST.test(url.hostname) && !url.username && !url.password && (url.port === '' || url.port === '443');
  }

  /** null when the message verifies; otherwise why not. */
  async problem(message: Record<string, unknown>): Promise<string | null> {
    const fields = SIGNED[text(message, 'Type')];
    if (!fields) return 'not an SNS message type';
    const version = text(message, 'SignatureVersion');
    if (version !== '1' && version !== '2') return 'SignatureVersion must be 1 or 2';
    const certUrl = text(message, 'SigningCertURL');
    if (!this.trusted(certUrl) || !new URL(certUrl).pathname.endsWith('.pem')) return 'SigningCertURL is not an SNS certificate URL';
    const signature = text(message, 'Signature');
    if (!signature) return 'the message is not signed';
    const pem = await this.certificate(certUrl);
    if (!pem) return 'the signing certificate could not be read';
    const signed = fields.filter((f) => f !== 'Subject' || typeof message.Subject === 'string').map((f) => `${f}\n${text(message, f)}\n`).join('');
    try {
      const verifier = createVerify(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
      verifier.update(signed, 'utf8');
      return verifier.verify(pem, signature, 'base64') ? null : 'the signature does not verify';
    } catch {
      return 'the signature does not verify';
    }
  }

  // A certificate is fetched once per URL; a failed fetch is forgotten so the next message tries again.
  private certificate(url: string): Promise<string | null> {
    let pending = this.certificates.get(url);
    if (!pending) {
      pending = this.http
        .request({ method: 'GET', url, headers: {}, timeoutMs: 10_000 })
        .then((res) => (res.status === 200 ? new X509Certificate(res.body).toString() : null))
        .catch(() => null);
      pending.then((pem) => (pem ? undefined : this.certificates.delete(url)));
      this.certificates.set(url, pending);
    }
    return pending;
  }
}
