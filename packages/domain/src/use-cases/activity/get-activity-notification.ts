import type { ActivityNotification } from '../../entities/activity';
import { DomainError } from '../../errors';
import type { ActivityRepository } from '../../ports/activity-repository';

/** One activity notification with its jobs, execution details and messages (spec operation 22). */
export class GetActivityNotification {
  constructor(private readonly activity: ActivityRepository) {}

  async execute(environmentId: string, notificationId: string): Promise<ActivityNotification> {
    const found = await this.activity.findById(environmentId, notificationId);
    if (!found) throw DomainError.notFound('NOTIFICATION_NOT_FOUND', 'Notification', notificationId);
    return found;
  }
}
