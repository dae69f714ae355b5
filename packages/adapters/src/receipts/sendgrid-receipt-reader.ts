import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Credentials, DeliveryReceipt, InboundReceiptRequest, ReceiptEvent, ReceiptReader, ReceiptReading } from '@herald/domain';
import { parseJson, rejected, text, verified } from './receipt-reading';

const EVENTS: Record<string, ReceiptEvent> = {
  delivered: 'delivered',
  bounce: 'bounced',
  dropped: 'failed',
  deferred: 'deferred',
  open: 'opened',
  click: 'clicked',
};

/**
 * SendGrid's signed Event Webhook: an ECDSA (P-256, SHA-256) signature over the timestamp header
 * followed by the raw body, checked with the verification key SendGrid shows for the webhook
 * (base64 DER public key), kept in the integration's `signingSecret`.
 */
export class SendGridReceiptReader implements ReceiptReader {
  async read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading> {
    const signature = request.headers['x-twilio-email-event-webhook-signature'];
    const timestamp = request.headers['x-twilio-email-event-webhook-timestamp'];
    if (!signature || !timestamp) return rejected('the call is not signed (X-Twilio-Email-Event-Webhook-Signature and -Timestamp)');
    const key = publicKey(credentials.signingSecret);
    if (!key) return rejected('the integration has no signingSecret (the Event Webhook verification key)');
    let good = false;
    try {
      good = verify('sha256', Buffer.from(timestamp + request.body), { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
    } catch {
      good = false;
    }
    if (!good) return rejected('the signature does not verify');
    const events = parseJson(request.body);
    if (!Array.isArray(events)) return rejected('the body is not a list of events');
    return verified(events.flatMap((event) => receiptOf(event)));
  }
}

function publicKey(value: unknown): KeyObject | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  try {
    const pem = value.includes('BEGIN PUBLIC KEY');
    return pem ? createPublicKey(value) : createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

function receiptOf(event: unknown): DeliveryReceipt[] {
  const id = text(event, 'sg_event_id');
  // The send answered X-Message-Id; events carry it as the first part of sg_message_id.
  const providerMessageId = text(event, 'sg_message_id').split('.')[0];
  if (!id || !providerMessageId) return [];
  const name = text(event, 'event');
  const reason = text(event, 'reason') || text(event, 'response');
  return [{ receiptId: id, providerMessageId, event: EVENTS[name] ?? 'other', detail: `SendGrid: ${name}${reason ? ` (${reason})` : ''}`, raw: JSON.stringify(event) }];
}
