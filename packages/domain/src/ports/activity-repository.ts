import { token } from '../shared/token';
import type { ActivityFilter, ActivityNotification, ActivityPage, TriggerProgress } from '../entities/activity';

export const ActivityRepository = token<ActivityRepository>('ActivityRepository');

export interface ActivityRepository {
  /**
   * One page of the environment's notifications matching every filter, newest first
   * (createdAt then id, descending), each with its subscriber, workflow and jobs.
   * `hasMore` is true when a further page has at least one row.
   */
  list(environmentId: string, filter: ActivityFilter, page: ActivityPage): Promise<{ notifications: ActivityNotification[]; hasMore: boolean }>;
  /** null when no notification of the environment has that id, including ids that are not ids at all. */
  findById(environmentId: string, notificationId: string): Promise<ActivityNotification | null>;
  /**
   * The trigger of the notification and its fan-out's progress, counted when asked (the trigger and
   * fan-out paths write nothing for it); null as `findById`.
   */
  triggerProgress(environmentId: string, notificationId: string): Promise<TriggerProgress | null>;
}
