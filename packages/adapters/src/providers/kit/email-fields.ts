import type { Credentials, OutboundMessage } from '@herald/domain';

export interface EmailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** An email after the trigger's overrides, in the terms every email provider maps from. */
export interface EmailFields {
  from: string;
  senderName?: string;
  to: string;
  subject: string;
  html: string;
  /** A plain-text part, when the trigger's overrides give one (`overrides.email.text`). */
  text?: string;
  replyTo?: string;
  cc?: string[];
  bcc?: string[];
  headers?: Record<string, string>;
  /** The trigger's `payload.attachments` (and `overrides.attachments`): `{ file: base64, name, mime }` each. */
  attachments: EmailAttachment[];
  /** A template kept at the provider (`overrides.templateId`), filled with `overrides.templateData` or the payload. */
  template?: { id: string; data: Record<string, unknown> };
}

const list = (value: unknown): string[] | undefined =>
  value === undefined || value === null ? undefined : (Array.isArray(value) ? value : [value]).map(String);

/** A file as a trigger carries it: base64 text, or a Buffer serialised to JSON. */
function bytes(file: unknown): Buffer | null {
  if (typeof file === 'string') return Buffer.from(file, 'base64');
  const data = (file as { type?: string; data?: unknown })?.data;
  return Array.isArray(data) ? Buffer.from(data as number[]) : null;
}

function attachments(...sources: unknown[]): EmailAttachment[] {
  return sources
    .flatMap((source) => (Array.isArray(source) ? source : []))
    .flatMap((a: { file?: unknown; name?: unknown; mime?: unknown }) => {
      const content = bytes(a?.file);
      return content && typeof a.name === 'string' ? [{ filename: a.name, content, contentType: typeof a.mime === 'string' ? a.mime : 'application/octet-stream' }] : [];
    });
}

type Address = { name?: unknown; address?: unknown };
const isAddress = (value: unknown): value is Address => typeof value === 'object' && value !== null && !Array.isArray(value) && 'address' in value;

/** An address as a bridge's code may give it (nodemailer's `{ name, address }`), as an RFC 5322 string. */
function addressText(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(addressText);
  if (!isAddress(value)) return value;
  return typeof value.name === 'string' && value.name ? `"${value.name.replace(/["\\\r\n]/g, '')}" <${String(value.address)}>` : String(value.address);
}

export function emailFields(message: OutboundMessage, credentials: Credentials): EmailFields {
  const given = message.overrides;
  // A `from` object names the sender; the other address fields keep their names in the text.
  const fromObject = isAddress(given.from) ? given.from : undefined;
  const o: Record<string, unknown> = {
    ...given,
    from: fromObject ? String(fromObject.address) : given.from,
    senderName: given.senderName ?? (typeof fromObject?.name === 'string' ? fromObject.name : undefined),
    replyTo: addressText(given.replyTo),
    cc: addressText(given.cc),
    bcc: addressText(given.bcc),
  };
  const templateId = o.templateId ?? o.template;
  return {
    from: String(o.from ?? credentials.from ?? ''),
    senderName: (o.senderName ?? credentials.senderName) as string | undefined,
    to: message.to.email ?? '',
    subject: message.subject ?? '',
    html: message.body,
    text: typeof o.text === 'string' ? o.text : undefined,
    replyTo: (Array.isArray(o.replyTo) ? o.replyTo.join(', ') : o.replyTo) as string | undefined,
    cc: list(o.cc),
    bcc: list(o.bcc),
    headers: o.headers as Record<string, string> | undefined,
    attachments: attachments(message.data?.attachments, o.attachments),
    template:
      typeof templateId === 'string' || typeof templateId === 'number'
        ? { id: String(templateId), data: (o.templateData as Record<string, unknown> | undefined) ?? message.data ?? {} }
        : undefined,
  };
}

/** `Name <address>`, or the bare address without a name. */
export function mailbox(address: string, name?: string): string {
  return name ? `${JSON.stringify(name)} <${address}>` : address;
}
