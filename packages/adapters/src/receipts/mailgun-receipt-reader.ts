import { createHmac } from 'node:crypto';
import type { Credentials, InboundReceiptRequest, ReceiptEvent, ReceiptReader, ReceiptReading } from '@herald/domain';
import { objectAt, parseJson, rejected, sameSignature, text, verified } from './receipt-reading';

/** How far a signature's timestamp may be from now: older calls are replays (Mailgun signs each attempt anew). */
export const MAILGUN_MAX_AGE_MS = 10 * 60_000;

/**
 * Mailgun's webhooks: `signature.signature` is the hex HMAC-SHA256, keyed with the account's
 * webhook signing key (the integration's `signingSecret`), of `signature.timestamp` followed by
 * `signature.token` (or, for a subaccount's domain, `signature.parent-signature` keyed with the
 * primary account's). A timestamp further than ten minutes from now is refused as a replay.
 *
 * The signature does not cover `event-data`, so a captured signature could carry another event
 * within those ten minutes. Mailgun's advice is to cache each token: a token is taken again only
 * with the event it first came with (a retry, then a duplicate by its event id), never another.
 * The cache is per process and forgets a token once its timestamp is out of the window.
 */
export class MailgunReceiptReader implements ReceiptReader {
  private readonly tokens = new Map<string, { eventId: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async read(request: InboundReceiptRequest, credentials: Credentials): Promise<ReceiptReading> {
    const body = parseJson(request.body);
    const signature = objectAt(body, 'signature');
    const [timestamp, token, given] = [text(signature, 'timestamp'), text(signature, 'token'), text(signature, 'signature')];
    if (!timestamp || !token || !given) return rejected('the call is not signed (signature.timestamp, token, signature)');
    if (typeof credentials.signingSecret !== 'string' || !credentials.signingSecret) return rejected('the integration has no signingSecret (the webhook signing key)');
    const expected = createHmac('sha256', credentials.signingSecret).update(timestamp + token).digest('hex');
    // A subaccount's events also carry `parent-signature`, made with the primary account's key.
    const parent = text(signature, 'parent-signature');
    if (!sameSignature(given, expected) && !(parent && sameSignature(parent, expected))) return rejected('the signature does not verify');
    if (!(Math.abs(this.now() - Number(timestamp) * 1000) <= MAILGUN_MAX_AGE_MS)) return rejected('the signature is too old (a replay)');
    const data = objectAt(body, 'event-data');
    const id = text(data, 'id');
    if (!this.firstUseOrSameEvent(token, id, Number(timestamp) * 1000)) return rejected('the signature token was already used for another event (a replay)');
    const messageId = text(objectAt(objectAt(data, 'message'), 'headers'), 'message-id');
    if (!id || !messageId) return verified([]);
    const name = text(data, 'event');
    const reason = text(objectAt(data, 'delivery-status'), 'description') || text(data, 'reason');
    return verified([
      {
        receiptId: id,
        // The send answered the id in angle brackets; events carry it without.
        providerMessageId: messageId.startsWith('<') ? messageId : `<${messageId}>`,
        event: eventOf(name, text(data, 'severity')),
        detail: `Mailgun: ${name}${reason ? ` (${reason})` : ''}`,
        raw: JSON.stringify(data),
      },
    ]);
  }

  private firstUseOrSameEvent(token: string, eventId: string, signedAt: number): boolean {
    const now = this.now();
    // Tokens were stored in arrival order, close to expiry order: drop the expired ones at the front.
    for (const [seen, entry] of this.tokens) {
      if (entry.expiresAt > now) break;
      this.tokens.delete(seen);
    }
    const earlier = this.tokens.get(token);
    if (earlier) return earlier.eventId === eventId;
    this.tokens.set(token, { eventId, expiresAt: signedAt + MAILGUN_MAX_AGE_MS });
    return true;
  }
}

function eventOf(name: string, severity: string): ReceiptEvent {
  if (name === 'failed') return severity === 'temporary' ? 'deferred' : 'bounced';
  return ({ delivered: 'delivered', opened: 'opened', clicked: 'clicked' } as Record<string, ReceiptEvent>)[name] ?? 'other';
}
