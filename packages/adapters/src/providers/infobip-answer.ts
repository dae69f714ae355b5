import type { ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import type { ProviderAnswer } from './kit/provider-http';

// What Infobip's SMS and Email APIs share: the account's base URL, the error body and the per-destination status.
type InfobipError = { requestError?: { serviceException?: { messageId?: string; text?: string } } };
type Sent = { messages?: Array<{ to: string; messageId: string; status?: { groupName?: string; name?: string; description?: string } }> };

/** The account's base URL as an origin: Infobip shows it without a scheme (xxxxx.api.infobip.com). */
export function infobipOrigin(baseUrl: string): string {
  return /^https?:\/\//.test(baseUrl) ? baseUrl : `https://${baseUrl}`;
}

/** The reason of a refused call: Infobip's `requestError.serviceException`. */
export function infobipReason(body: InfobipError): string | undefined {
  const e = body.requestError?.serviceException;
  return e ? `${e.messageId}: ${e.text}` : undefined;
}

/** The message id of an accepted call, or a permanent failure when Infobip REJECTED the destination. */
export function infobipReceipt(answer: ProviderAnswer): ProviderReceipt {
  const sent = (answer.body as Sent).messages?.[0];
  if (sent?.status?.groupName === 'REJECTED') {
    throw new ProviderError(`Infobip rejected ${sent.to}: ${sent.status.name} (${sent.status.description})`, false, answer.raw, { code: sent.status.name });
  }
  return { providerMessageId: sent?.messageId, raw: answer.raw };
}
