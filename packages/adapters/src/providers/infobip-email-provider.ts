import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { emailForm } from './kit/email-form';
import { defineProvider } from './kit/provider-definition';
import { callProvider } from './kit/provider-http';

type Sent = { messages?: Array<{ to: string; messageId: string; status?: { groupName?: string; name?: string; description?: string } }> };

/**
 * Infobip Email (POST /email/3/send, multipart form) at the account's own `baseUrl`, through Herald's
 * guarded client: the base URL is tenant input, so the outbound guard must see every call (the
 * Infobip SDK would bypass it). A message Infobip REJECTED is a permanent failure.
 */
export class InfobipEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const origin = this.options.baseUrl ?? credentials.baseUrl;
    if (!credentials.apiKey || !origin) throw new ProviderError('the integration needs apiKey and baseUrl', false);
    const f = emailFields(message, credentials);
    const form = emailForm(f, { templateId: 'templateId', templateData: 'defaultPlaceholders', replyTo: 'replyTo' });
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${origin.replace(/\/+$/, '')}/email/3/send`,
      headers: { authorization: `App ${credentials.apiKey}` },
      form,
      secrets: [credentials.apiKey],
      reason: (body: { requestError?: { serviceException?: { messageId?: string; text?: string } } }) => {
        const e = body.requestError?.serviceException;
        return e ? `${e.messageId}: ${e.text}` : undefined;
      },
    });
    const sent = (answer.body as Sent).messages?.[0];
    if (sent?.status?.groupName === 'REJECTED') {
      throw new ProviderError(`Infobip rejected ${sent.to}: ${sent.status.name} (${sent.status.description})`, false, answer.raw, { code: sent.status.name });
    }
    return { providerMessageId: sent?.messageId, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'infobip-email', through: 'HTTP API (POST /email/3/send, multipart)', create: (kit) => new InfobipEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
