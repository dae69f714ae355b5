import { z } from '@hono/zod-openapi';
import { CHANNEL_TYPES } from '@herald/domain';

const flag = z.boolean().optional();

/** Channel switches as the clients send them; `tool` (a channel Herald does not have) is accepted and ignored. */
export const ChannelFlagsShape = { email: flag, sms: flag, in_app: flag, chat: flag, push: flag, tool: flag };

/** The switches given for Herald's channels. */
export function channelFlags(body: Partial<Record<keyof typeof ChannelFlagsShape, boolean>>): Record<string, boolean> {
  return Object.fromEntries(CHANNEL_TYPES.flatMap((channel) => (body[channel] === undefined ? [] : [[channel, body[channel]]])));
}
