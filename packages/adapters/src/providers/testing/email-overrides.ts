import type { ProviderFake, WireMessage } from './provider-fake';

const INVOICE = Buffer.from('Invoice A-1').toString('base64');

/** The email overrides every email provider maps (the trigger's `overrides.email`), and how they look on the wire. */
const ALL = {
  from: { given: { from: 'orders@herald.test' }, wire: { from: 'orders@herald.test' } },
  senderName: { given: { senderName: 'Herald Orders' }, wire: { senderName: 'Herald Orders' } },
  replyTo: { given: { replyTo: 'help@herald.test' }, wire: { replyTo: 'help@herald.test' } },
  cc: { given: { cc: ['boss@example.com'] }, wire: { cc: ['boss@example.com'] } },
  bcc: { given: { bcc: ['audit@example.com'] }, wire: { bcc: ['audit@example.com'] } },
  headers: { given: { headers: { 'X-Campaign': 'spring' } }, wire: { headers: { 'x-campaign': 'spring' } } },
  text: { given: { text: 'Order A-1 is on its way' }, wire: { text: 'Order A-1 is on its way' } },
  attachments: {
    given: { attachments: [{ file: INVOICE, name: 'invoice.txt', mime: 'text/plain' }] },
    wire: { attachments: [{ filename: 'invoice.txt', contentType: 'text/plain', content: INVOICE }] },
  },
} satisfies Record<string, { given: Record<string, unknown>; wire: Partial<WireMessage> }>;

export type EmailOverride = keyof typeof ALL;

/**
 * The overrides case of an email provider's fixture: every override, less those its API has no place
 * for (each with the reason, which docs/providers.md repeats).
 */
export function emailOverrides(unsupported: Partial<Record<EmailOverride, string>> = {}): ProviderFake['overrides'] {
  const kept = Object.entries(ALL).filter(([name]) => !(name in unsupported));
  return {
    unmapped: unsupported as Record<string, string>,
    given: Object.assign({}, ...kept.map(([, o]) => o.given)),
    wire: Object.assign({ subject: 'Order A-1', body: '<p>Order A-1 is on its way</p>' }, ...kept.map(([, o]) => o.wire)),
  };
}

/** Header names as the wire comparison expects them: lower case (HTTP APIs keep the case they were given). */
export function wireHeaders(headers: Record<string, unknown> | Array<{ name?: string; Name?: string; value?: string; Value?: string }> | undefined): Record<string, string> {
  if (!headers) return {};
  const pairs = Array.isArray(headers) ? headers.map((h) => [h.name ?? h.Name ?? '', h.value ?? h.Value ?? ''] as const) : Object.entries(headers);
  return Object.fromEntries(pairs.map(([k, v]) => [k.toLowerCase(), String(v)]));
}

/** `"Name" <address>` (or a bare address) as the wire carries it. */
export function parseMailbox(value: string): { address?: string; name?: string } {
  const [, name, address] = /^(?:"?([^"<]*)"?\s*<)?([^<>]+)>?$/.exec(value ?? '') ?? [];
  return { address: address?.trim(), name: name?.trim() || undefined };
}
