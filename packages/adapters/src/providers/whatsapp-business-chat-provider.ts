import type { Credentials, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { HttpApiProvider } from './kit/http-api-provider';
import { defineProvider } from './kit/provider-definition';
import { requireCredentials } from './kit/require-credentials';

const API = 'https://graph.facebook.com';
// The Graph API version the message shapes below were written against; Meta keeps each for two years.
const VERSION = 'v21.0';

type GraphError = { error?: { message?: string; code?: number; error_subcode?: number; error_data?: { details?: string } } };

// Graph error codes that are throttling or a passing outage (answered 400 or 500): another attempt may pass.
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 613, 80007, 130429, 131000, 131048, 131056, 133004]);

/** The template message of `overrides.template` ({ name, language, components }), or none. */
function template(value: unknown): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const t = value as { name?: unknown; language?: unknown; components?: unknown };
  if (typeof t.name !== 'string') return undefined;
  const code = typeof t.language === 'string' ? t.language : ((t.language as { code?: string })?.code ?? 'en_US');
  return { name: t.name, language: { code }, ...(Array.isArray(t.components) ? { components: t.components } : {}) };
}

/**
 * WhatsApp Business through Meta's Cloud API (POST /<version>/<phone-number-id>/messages) with
 * Herald's guarded client: Meta publishes no maintained Node SDK for it. `apiToken` is the system
 * user's access token, `phoneNumberIdentification` the sending phone number id; the recipient is the
 * subscriber's chat channel setting (`channel`, the WhatsApp number in international format). A
 * text message carries the rendered body; `overrides.template` sends an approved template instead
 * (needed outside the 24-hour window), and `overrides.previewUrl` turns on link previews.
 */
export class WhatsAppBusinessChatProvider extends HttpApiProvider {
  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiToken, phoneNumberIdentification } = requireCredentials(credentials, ['apiToken', 'phoneNumberIdentification']);
    const to = message.to.chatChannel;
    if (!to) throw new ProviderError('the subscriber has no WhatsApp number (a chat channel setting `channel`)', false);
    const o = message.overrides;
    const tpl = template(o.template);
    const answer = await this.call({
      url: this.url(API, `/${VERSION}/${encodeURIComponent(phoneNumberIdentification)}/messages`),
      headers: { authorization: `Bearer ${apiToken}` },
      json: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        ...(tpl ? { type: 'template', template: tpl } : { type: 'text', text: { body: message.body, ...(o.previewUrl === true ? { preview_url: true } : {}) } }),
      },
      secrets: [apiToken],
      reason: (body: GraphError) => body.error && `(#${body.error.code}) ${body.error.error_data?.details ?? body.error.message}`,
      retryable: (status, body: GraphError) => (status >= 500 || status === 429 || TRANSIENT_CODES.has(Number(body?.error?.code)) ? true : undefined),
    });
    const id = (answer.body as { messages?: Array<{ id?: string }> }).messages?.[0]?.id;
    return { providerMessageId: id, raw: answer.raw };
  }
}

export const providers = [
  defineProvider({
    id: 'whatsapp-business',
    through: 'Cloud API (POST /<version>/<phone-number-id>/messages)',
    create: (kit) => new WhatsAppBusinessChatProvider(kit),
  }),
];
