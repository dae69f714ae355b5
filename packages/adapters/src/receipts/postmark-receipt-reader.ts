import type { Credentials, InboundReceiptRequest, ReceiptEvent, ReceiptReader, ReceiptReading } from '@herald/domain';
import { parseJson, rejected, sameSignature, text, verified } from './receipt-reading';

/** Bounce types that mean the address will not take mail; the others (soft, transient) are deferrals. */
const HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'Blocked', 'SMTPApiError']);

/**
 * Postmark signs nothing: its webhooks carry HTTP basic auth credentials written into the webhook
 * URL (`https://user:password@…`). They must be the integration's `user` and `password`; an
 * integration without them takes no receipts.
 */
export class PostmarkReceiptReader implements ReceiptReader {
  async read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading> {
    const { user, password } = credentials;
    if (typeof user !== 'string' || !user || typeof password !== 'string' || !password) {
      return rejected('the integration has no user and password for the webhook URL');
    }
    // The scheme name is case-insensitive (RFC 9110); the credentials are compared in constant time.
    const given = /^basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSignature(given, Buffer.from(`${user}:${password}`).toString('base64'))) {
      return rejected('the basic auth credentials are missing or wrong');
    }
    const record = parseJson(request.body);
    const type = text(record, 'RecordType');
    const messageId = text(record, 'MessageID');
    if (!type || !messageId) return verified([]);
    const bounceType = text(record, 'Type');
    const event: ReceiptEvent =
      type === 'Delivery' ? 'delivered' : type === 'Bounce' ? (HARD.has(bounceType) ? 'bounced' : 'deferred') : type === 'Open' ? 'opened' : type === 'Click' ? 'clicked' : 'other';
    // A bounce has its own ID; a delivery happens once; opens and clicks repeat, told apart by time.
    const receiptId = type === 'Bounce' ? `Bounce:${text(record, 'ID')}` : `${type}:${messageId}:${text(record, 'ReceivedAt') || text(record, 'DeliveredAt')}`;
    const reason = text(record, 'Description') || text(record, 'Details');
    return verified([{ receiptId, providerMessageId: messageId, event, detail: `Postmark: ${type}${bounceType ? ` ${bounceType}` : ''}${reason ? ` (${reason})` : ''}`, raw: request.body }]);
  }
}
