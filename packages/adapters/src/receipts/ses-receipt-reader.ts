import { snsTopicArns, type Credentials, type DeliveryReceipt, type HttpClient, type InboundReceiptRequest, type ReceiptEvent, type ReceiptReader, type ReceiptReading } from '@herald/domain';
import { objectAt, parseJson, rejected, text, verified } from './receipt-reading';
import type { SnsMessageVerifier } from './sns-message-verifier';

const EVENTS: Record<string, ReceiptEvent> = { Delivery: 'delivered', Reject: 'failed', Open: 'opened', Click: 'clicked', DeliveryDelay: 'deferred' };

/**
 * Amazon SES notifications (bounce, delivery, complaint) and event publishing, through an SNS
 * topic subscribed to the receipt URL. Any AWS account can sign SNS messages, so a message is
 * taken only from the topics the integration names (`topicArns`), then its signature is verified.
 * A SubscriptionConfirmation is confirmed by calling its SubscribeURL, which must be SNS's own
 * ConfirmSubscription for that topic (through the outbound guard): no other address is ever
 * called. An UnsubscribeConfirmation is acknowledged and not undone: re-subscribing is the
 * operator's decision.
 */
export class SesReceiptReader implements ReceiptReader {
  constructor(
    private readonly sns: SnsMessageVerifier,
    private readonly http: HttpClient,
  ) {}

  async read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading> {
    const message = parseJson(request.body);
    if (!message || typeof message !== 'object' || Array.isArray(message)) return rejected('the body is not an SNS message');
    const sns = message as Record<string, unknown>;
    const topics = snsTopicArns(credentials.topicArns).arns;
    if (!topics.length) return rejected('the integration names no topicArns (the SNS topics it takes receipts from)');
    const topic = text(sns, 'TopicArn');
    if (!topics.includes(topic)) return rejected(`the SNS topic ${topic ? `${topic} ` : ''}is not one of the integration's topicArns`);
    const problem = await this.sns.problem(sns);
    if (problem) return rejected(problem);
    const type = text(sns, 'Type');
    if (type === 'SubscriptionConfirmation') return this.confirm(text(sns, 'SubscribeURL'), topic);
    if (type !== 'Notification') return verified([]);
    return verified(receiptOf(text(sns, 'MessageId'), parseJson(text(sns, 'Message'))));
  }

  private async confirm(subscribeUrl: string, topic: string): Promise<ReceiptReading> {
    if (!this.sns.trusted(subscribeUrl)) return rejected('SubscribeURL is not on SNS');
    const params = new URL(subscribeUrl).searchParams;
    if (params.get('Action') !== 'ConfirmSubscription' || params.get('TopicArn') !== topic) return rejected('SubscribeURL is not a ConfirmSubscription for this topic');
    const answer = await this.http.request({ method: 'GET', url: subscribeUrl, headers: {}, timeoutMs: 10_000 }).catch(() => null);
    if (!answer || answer.status !== 200) return rejected('the subscription could not be confirmed');
    return verified([]);
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
