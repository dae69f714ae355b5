import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { infobipOrigin, infobipReason, infobipReceipt } from './infobip-answer';
import { emailFields } from './kit/email-fields';
import { emailForm } from './kit/email-form';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials } from './kit/require-credentials';

/**
 * Infobip Email (POST /email/3/send, multipart form) at the account's own `baseUrl`, through Herald's
 * guarded client: the base URL is tenant input, so the outbound guard must see every call (the
 * Infobip SDK would bypass it). A message Infobip REJECTED is a permanent failure.
 */
export class InfobipEmailProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, baseUrl } = requireCredentials(credentials, ['apiKey', 'baseUrl']);
    const f = emailFields(message, credentials);
    const form = emailForm(f, { templateId: 'templateId', templateData: 'defaultPlaceholders', replyTo: 'replyTo' });
    const answer = await this.call({
      url: this.url(infobipOrigin(baseUrl), '/email/3/send'),
      headers: { authorization: `App ${apiKey}` },
      form,
      secrets: [apiKey],
      reason: infobipReason,
    });
    return infobipReceipt(answer);
  }
}

export const providers = [
  defineProvider({ id: 'infobip-email', through: 'HTTP API (POST /email/3/send, multipart)', create: (kit) => new InfobipEmailProvider(kit) }),
];
