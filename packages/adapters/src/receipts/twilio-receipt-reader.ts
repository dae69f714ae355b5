import { createHmac } from 'node:crypto';
import type { Credentials, InboundReceiptRequest, ReceiptEvent, ReceiptReader, ReceiptReading } from '@herald/domain';
import { rejected, sameSignature, verified } from './receipt-reading';

const EVENTS: Record<string, ReceiptEvent> = { delivered: 'delivered', undelivered: 'bounced', failed: 'failed', read: 'opened' };

/**
 * Twilio's SMS status callback: `X-Twilio-Signature` is the base64 HMAC-SHA1, keyed with the
 * account's auth token (the integration's `token`), of the full URL Twilio called followed by every
 * form parameter's name and value, sorted by name.
 */
export class TwilioReceiptReader implements ReceiptReader {
  async read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading> {
    const signature = request.headers['x-twilio-signature'];
    if (!signature) return rejected('the call is not signed (X-Twilio-Signature)');
    if (typeof credentials.token !== 'string' || !credentials.token) return rejected('the integration has no token');
    const params = new URLSearchParams(request.body);
    const names = [...new Set(params.keys())].sort();
    const signed = request.url + names.map((name) => params.getAll(name).map((value) => name + value).join('')).join('');
    const expected = createHmac('sha1', credentials.token).update(signed, 'utf8').digest('base64');
    if (!sameSignature(signature, expected)) return rejected('the signature does not verify');
    if (credentials.accountSid && params.get('AccountSid') !== credentials.accountSid) return rejected('the AccountSid is not the integration\'s');
    const sid = params.get('MessageSid') ?? params.get('SmsSid') ?? '';
    const status = params.get('MessageStatus') ?? params.get('SmsStatus') ?? '';
    if (!sid || !status) return verified([]);
    const error = params.get('ErrorCode');
    return verified([
      {
        // Twilio sends one callback per status change and none has an id of its own.
        receiptId: `${sid}:${status}`,
        providerMessageId: sid,
        event: EVENTS[status] ?? 'other',
        detail: `Twilio: ${status}${error ? ` (error ${error})` : ''}`,
        raw: JSON.stringify(Object.fromEntries(params)),
      },
    ]);
  }
}
