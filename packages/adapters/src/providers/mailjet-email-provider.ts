import type { Credentials, DeliveryProvider, HttpClient, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { basicAuth, callProvider } from './kit/provider-http';

const API = 'https://api.mailjet.com';
const address = (Email: string) => ({ Email });

type SendError = { ErrorMessage?: string; ErrorCode?: string };
type SendAnswer = { Messages?: Array<{ Status: string; To?: Array<{ MessageID?: number | string }>; Errors?: SendError[] }>; ErrorMessage?: string };

/**
 * Mailjet Send API v3.1 (POST /v3.1/send) through Herald's guarded client: node-mailjet always
 * speaks https to its host, so it cannot be pointed at a sandbox or loopback fake over http, and its
 * errors carry the request config with the credentials. `apiKey` and `secretKey` are the key pair.
 */
export class MailjetEmailProvider implements DeliveryProvider {
  constructor(
    private readonly http: HttpClient,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { apiKey, secretKey } = credentials;
    if (!apiKey || !secretKey) throw new ProviderError('the integration needs apiKey and secretKey', false);
    const f = emailFields(message, credentials);
    const template = f.template && /^\d+$/.test(f.template.id) ? { TemplateID: Number(f.template.id), TemplateLanguage: true, Variables: f.template.data } : undefined;
    const answer = await callProvider(this.http, this.options.timeoutMs, {
      url: `${this.options.baseUrl ?? API}/v3.1/send`,
      headers: { authorization: basicAuth(apiKey, secretKey) },
      json: {
        Messages: [
          {
            From: { Email: f.from, ...(f.senderName ? { Name: f.senderName } : {}) },
            To: [address(f.to)],
            ...(f.cc ? { Cc: f.cc.map(address) } : {}),
            ...(f.bcc ? { Bcc: f.bcc.map(address) } : {}),
            ...(f.replyTo ? { ReplyTo: address(f.replyTo) } : {}),
            Subject: f.subject,
            ...(template ?? { HTMLPart: f.html, ...(f.text ? { TextPart: f.text } : {}) }),
            ...(f.headers ? { Headers: f.headers } : {}),
            ...(f.attachments.length ? { Attachments: f.attachments.map((a) => ({ ContentType: a.contentType, Filename: a.filename, Base64Content: a.content.toString('base64') })) } : {}),
            CustomID: message.transactionId,
          },
        ],
      },
      secrets: [apiKey, secretKey],
      reason: (body: SendAnswer) => body.ErrorMessage ?? body.Messages?.flatMap((m) => m.Errors ?? []).map((e) => `${e.ErrorCode}: ${e.ErrorMessage}`).join('; '),
    });
    const sent = (answer.body as SendAnswer).Messages?.[0];
    if (sent?.Status !== 'success') throw new ProviderError(`Mailjet did not send: ${sent?.Errors?.map((e) => e.ErrorMessage).join('; ') ?? sent?.Status}`, false, answer.raw);
    const id = sent.To?.[0]?.MessageID;
    return { providerMessageId: id === undefined ? undefined : String(id), raw: answer.raw };
  }
}

export const providers = [
  defineProvider({ id: 'mailjet', through: 'HTTP API (POST /v3.1/send)', create: (kit) => new MailjetEmailProvider(kit.http, { baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
