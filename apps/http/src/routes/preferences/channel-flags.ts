import { z } from '@hono/zod-openapi';
import { CHANNEL_TYPES } from '@herald/domain';

const flag = z.boolean().optional();

/** Channel switches as the clients send them; `tool` (a channel Herald does not have) is accepted and ignored. */
export const ChannelFlagsShape = { email: flag, sms: flag, in_app: flag, chat: flag, push: flag, tool: flag };

const Day = z.strictObject({ isEnabled: z.boolean(), hours: z.array(z.strictObject({ start: z.string(), end: z.string() })).optional() });

/** A delivery schedule the clients can send; Herald keeps none, so it is accepted and ignored. */
export const ScheduleSchema = z
  .strictObject({
    isEnabled: z.boolean(),
    weeklySchedule: z
      .strictObject({ monday: Day.optional(), tuesday: Day.optional(), wednesday: Day.optional(), thursday: Day.optional(), friday: Day.optional(), saturday: Day.optional(), sunday: Day.optional() })
      .optional(),
  })
  .openapi('PreferenceSchedule', { description: 'Accepted for client compatibility; Herald keeps no delivery schedules' });

/** The switches given for Herald's channels. */
export function channelFlags(body: Partial<Record<keyof typeof ChannelFlagsShape, boolean>>): Record<string, boolean> {
  return Object.fromEntries(CHANNEL_TYPES.flatMap((channel) => (body[channel] === undefined ? [] : [[channel, body[channel]]])));
}
