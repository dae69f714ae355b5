import { z } from '@hono/zod-openapi';
import { SCHEDULE_DAYS } from '@herald/domain';

const TimeRangeSchema = z
  .object({
    start: z.string().openapi({ example: '09:00 AM', description: 'Local time, hh:mm AM or PM' }),
    end: z.string().openapi({ example: '05:00 PM', description: 'Local time, excluded; 12:00 AM is the midnight ending the day; before start runs past midnight' }),
  })
  .strict();

const DayScheduleSchema = z.object({ isEnabled: z.boolean(), hours: z.array(TimeRangeSchema).optional() }).strict();

/**
 * A subscriber's delivery schedule as the interface's clients send and read it: the shape only
 * (unknown keys refused); the use case checks the times and ranges and names the bad field.
 */
export const ScheduleSchema = z
  .object({
    isEnabled: z.boolean(),
    weeklySchedule: z
      .object(Object.fromEntries(SCHEDULE_DAYS.map((day) => [day, DayScheduleSchema.optional()])) as Record<(typeof SCHEDULE_DAYS)[number], z.ZodOptional<typeof DayScheduleSchema>>)
      .strict()
      .optional(),
  })
  .strict()
  .openapi('DeliverySchedule', {
    description:
      "When email, SMS, chat and push may reach the subscriber, in their timezone (UTC when none). Steps of other channels wait until it opens; in-app steps and critical workflows are never held.",
  });
