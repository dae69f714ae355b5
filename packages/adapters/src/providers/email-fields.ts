import type { Credentials, OutboundMessage } from '@herald/domain';

/** The sender, recipients and extras of an email, after the trigger's overrides; shared by the email providers. */
export interface EmailFields {
  from: string;
  senderName?: string;
  to: string;
  replyTo?: string;
  cc?: string[];
  bcc?: string[];
  headers?: Record<string, string>;
}

const list = (value: unknown): string[] | undefined =>
  value === undefined || value === null ? undefined : (Array.isArray(value) ? value : [value]).map(String);

export function emailFields(message: OutboundMessage, credentials: Credentials): EmailFields {
  const o = message.overrides;
  return {
    from: String(o.from ?? credentials.from ?? ''),
    senderName: (o.senderName ?? credentials.senderName) as string | undefined,
    to: message.to.email ?? '',
    replyTo: o.replyTo as string | undefined,
    cc: list(o.cc),
    bcc: list(o.bcc),
    headers: o.headers as Record<string, string> | undefined,
  };
}
