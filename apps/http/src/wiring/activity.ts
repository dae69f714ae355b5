import { SqlActivityRepository } from '@herald/adapters';
import { ActivityRepository, GetActivityNotification, GetTriggerProgress, ListActivity } from '@herald/domain';
import type { Wiring } from './binder';

/** The activity log: reads of the delivery tables. */
export const activity: Wiring = (bind, { db }) => {
  bind.value(ActivityRepository, new SqlActivityRepository(db.pool));
  bind.construct(ListActivity, [ActivityRepository]);
  bind.construct(GetActivityNotification, [ActivityRepository]);
  bind.construct(GetTriggerProgress, [ActivityRepository]);
};
