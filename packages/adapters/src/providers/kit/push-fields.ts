import type { OutboundMessage } from '@herald/domain';

/** A push notification as every push provider reads it from the step's content and the trigger's overrides. */
export interface PushFields {
  tokens: string[];
  title: string;
  body: string;
  data?: Record<string, unknown>;
  sound?: string;
  badge?: number;
}

/**
 * The push fields of a message: the title from `overrides.title` or the step's subject, `data` from
 * the overrides or else the trigger payload, `sound` and `badge` when given.
 */
export function pushFields(message: OutboundMessage): PushFields {
  const o = message.overrides;
  const data = (o.data ?? message.data) as Record<string, unknown> | undefined;
  const badge = Number(o.badge);
  return {
    tokens: message.to.deviceTokens ?? [],
    title: String(o.title ?? message.subject ?? ''),
    body: message.body,
    ...(data && typeof data === 'object' ? { data } : {}),
    ...(typeof o.sound === 'string' ? { sound: o.sound } : {}),
    ...(o.badge !== undefined && Number.isInteger(badge) ? { badge } : {}),
  };
}
