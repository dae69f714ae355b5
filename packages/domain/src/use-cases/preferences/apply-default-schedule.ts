import { validateDeliverySchedule, type DeliverySchedule } from '../../entities/delivery-schedule';
import type { PreferenceRepository } from '../../ports/preference-repository';

/** The Inbox's `defaultSchedule` session option, checked: `isEnabled` defaults to true when a week is given. */
export function parseDefaultSchedule(raw: unknown): DeliverySchedule {
  const given = raw && typeof raw === 'object' && !Array.isArray(raw) && !('isEnabled' in raw) ? { ...raw, isEnabled: 'weeklySchedule' in raw } : raw;
  return validateDeliverySchedule(given, 'defaultSchedule');
}

/**
 * Makes the Inbox's default schedule the subscriber's delivery schedule unless they already have
 * one: a subscriber's own choice is never overwritten by the page's default.
 */
export class ApplyDefaultSchedule {
  constructor(private readonly preferences: PreferenceRepository) {}

  async execute(environmentId: string, subscriberId: string, schedule: DeliverySchedule): Promise<void> {
    await this.preferences.setSchedule(environmentId, subscriberId, schedule, true);
  }
}
