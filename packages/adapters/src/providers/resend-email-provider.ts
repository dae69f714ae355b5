import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { Resend } from 'resend';
import { defineProvider } from './kit/provider-definition';
import { clientPerKey } from './kit/client-per-key';
import { emailFields } from './kit/email-fields';
import { httpFailure, lazy, networkFailure, retryAfterMs } from './kit/provider-failure';

const sdk = lazy(() => import('resend'));

/**
 * Resend through its SDK, with the job id as Resend's Idempotency-Key: a retry after a lost answer
 * never sends twice. `baseUrl` (operator setting) points it elsewhere.
 */
export class ResendEmailProvider implements DeliveryProvider {
  // One client per integration key, kept between sends (the SDK keeps the key on its client).
  private resendFor?: (apiKey: string) => Resend;

  constructor(private readonly options: { baseUrl?: string } = {}) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    if (!credentials.apiKey) throw new ProviderError('the integration has no apiKey', false);
    const secrets = [credentials.apiKey];
    if (!this.resendFor) {
      const { Resend } = await sdk();
      this.resendFor ??= clientPerKey((apiKey) => new Resend(apiKey, this.options.baseUrl ? { baseUrl: this.options.baseUrl } : undefined));
    }
    const resend = this.resendFor(credentials.apiKey);
    const f = emailFields(message, credentials);
    let result: Awaited<ReturnType<Resend['emails']['send']>>;
    try {
      result = await resend.emails.send(
        {
          from: f.senderName ? `${f.senderName} <${f.from}>` : f.from,
          to: f.to,
          subject: f.subject,
          ...(f.template ? { template: { id: f.template.id, variables: f.template.data } } : { html: f.html, ...(f.text ? { text: f.text } : {}) }),
          replyTo: f.replyTo,
          cc: f.cc,
          bcc: f.bcc,
          headers: f.headers,
          attachments: f.attachments.length ? f.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })) : undefined,
        } as Parameters<Resend['emails']['send']>[0],
        { idempotencyKey: message.idempotencyKey },
      );
    } catch (error) {
      throw networkFailure(error, secrets);
    }
    if (result.error) {
      const e = result.error as { statusCode?: number | null; name?: string; message?: string };
      // The SDK answers a network failure with a status-less application_error.
      if (!e.statusCode) throw new ProviderError(`could not reach Resend: ${e.message ?? e.name}`, true, undefined, { code: e.name });
      const retryAfter = retryAfterMs(result.headers?.['retry-after']);
      throw httpFailure(e.statusCode, `${e.name}: ${e.message}`, e, secrets, retryAfter === undefined ? undefined : retryAfter / 1000);
    }
    return { providerMessageId: result.data.id, raw: JSON.stringify(result.data) };
  }
}

export const providers = [
  defineProvider({ id: 'resend', through: '`resend` (job id as its Idempotency-Key)', create: (kit) => new ResendEmailProvider({ baseUrl: kit.endpoint }) }),
];
