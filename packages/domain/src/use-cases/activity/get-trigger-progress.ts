import type { TriggerProgress } from '../../entities/activity';
import { DomainError } from '../../errors';
import type { ActivityRepository } from '../../ports/activity-repository';

/** The trigger a notification came from and how far its topic fan-out has got (recipients expanded of total). */
export class GetTriggerProgress {
  constructor(private readonly activity: ActivityRepository) {}

  async execute(environmentId: string, notificationId: string): Promise<TriggerProgress> {
    const found = await this.activity.triggerProgress(environmentId, notificationId);
    if (!found) throw DomainError.notFound('NOTIFICATION_NOT_FOUND', 'Notification', notificationId);
    return found;
  }
}
