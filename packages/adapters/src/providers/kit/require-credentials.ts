import type { Credentials, OutboundMessage } from '@herald/domain';
import { ProviderError } from '@herald/domain';

/**
 * The named credential fields as strings, or a permanent failure naming the first one missing: no
 * retry adds a field, and the API refuses such an integration already (422), so this guards rows
 * written before a field became required.
 */
export function requireCredentials<K extends string>(credentials: Credentials, fields: readonly K[]): Record<K, string> {
  const values = {} as Record<K, string>;
  for (const field of fields) {
    const value = (credentials as Record<string, unknown>)[field];
    if (value === undefined || value === null || value === '') throw new ProviderError(`the integration has no ${field}`, false);
    values[field] = String(value);
  }
  return values;
}

/** An SMS as every SMS API takes it: the subscriber's number, the sender (the trigger's `from` first) and the text. */
export function smsFields(message: OutboundMessage, credentials: Credentials): { to: string; from: string | undefined; text: string } {
  if (!message.to.phone) throw new ProviderError('the subscriber has no phone number', false);
  const from = message.overrides.from ?? credentials.from;
  return { to: message.to.phone, from: from === undefined || from === null || from === '' ? undefined : String(from), text: message.body };
}
