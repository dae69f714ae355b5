import type { Credentials, DeliveryReceipt, HttpClient, InboundReceiptRequest, ReceiptEvent, ReceiptReader, ReceiptReading } from '@herald/domain';
import { objectAt, parseJson, rejected, text, verified } from './receipt-reading';
import type { SnsMessageVerifier } from './sns-message-verifier';

const EVENTS: Record<string, ReceiptEvent> = { Delivery: 'delivered', Reject: 'failed', Open: 'opened', Click: 'clicked', DeliveryDelay: 'deferred' };

/**
 * Amazon SES notifications (bounce, delivery, complaint) and event publishing, through an SNS
 * topic subscribed to the receipt URL. Every SNS message is verified first. A verified
 * SubscriptionConfirmation is confirmed by calling its SubscribeURL, which must be on SNS itself
 * (through the outbound guard): no other address is ever called.
 */
export class SesReceiptReader implements ReceiptReader {
  constructor(
    private readonly sns: SnsMessageVerifier,
    private readonly http: HttpClient,
  ) {}

  async read(request: InboundReceiptRequest, _credentials: Credentials): Promise<ReceiptReading> {
    const message = parseJson(request.body);
    if (!message || typeof message !== 'object' || Array.isArray(message)) return rejected('the body is not an SNS message');
    const sns = message as Record<string, unknown>;
    const problem = await this.sns.problem(sns);
    if (problem) return rejected(problem);
    const type = text(sns, 'Type');
    if (type === 'SubscriptionConfirmation') {
      const url = text(sns, 'SubscribeURL');
      if (!this.sns.trusted(url)) return rejected('SubscribeURL is not on SNS');
      const answer = await this.http.request({ method: 'GET', url, headers: {}, timeoutMs: 10_000 }).catch(() => null);
      if (!answer || answer.status !== 200) return rejected('the subscription could not be confirmed');
      return verified([]);
    }
    if (type !== 'Notification') return verified([]);
    return verified(receiptOf(text(sns, 'MessageId'), parseJson(text(sns, 'Message'))));
  }
}

function receiptOf(snsMessageId: string, ses: unknown): DeliveryReceipt[] {
  // Notifications say notificationType; event publishing says eventType.
  const type = text(ses, 'notificationType') || text(ses, 'eventType');
  const messageId = text(objectAt(ses, 'mail'), 'messageId');
  if (!type || !messageId) return [];
  const bounce = objectAt(ses, 'bounce');
  const event: ReceiptEvent = type === 'Bounce' ? (text(bounce, 'bounceType') === 'Transient' ? 'deferred' : 'bounced') : (EVENTS[type] ?? 'other');
  const reason = bounce ? `${text(bounce, 'bounceType')}/${text(bounce, 'bounceSubType')}` : '';
  // SNS delivers at least once with the same MessageId: it is the receipt's id.
  return [{ receiptId: snsMessageId, providerMessageId: messageId, event, detail: `Amazon SES: ${type}${reason ? ` (${reason})` : ''}`, raw: JSON.stringify(ses) }];
}
