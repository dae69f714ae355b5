import { DomainError, FanOutEvent, TriggerEvent, type EventRepository, type FanOutOptions, type IntegrationRepository, type RunNotifications, type TriggerEventInput, type TriggerEventOutput } from '@herald/domain';
import type { HeraldMetrics } from './metrics';

/** TriggerEvent that counts what it answered: accepted, deduplicated, or rejected with the reason. */
export class MeteredTriggerEvent extends TriggerEvent {
  constructor(
    events: EventRepository,
    integrations: Pick<IntegrationRepository, 'list'>,
    private readonly metrics: HeraldMetrics,
    steps?: RunNotifications,
  ) {
    super(events, integrations, steps);
  }

  override async execute(input: TriggerEventInput): Promise<TriggerEventOutput> {
    let result: TriggerEventOutput;
    try {
      result = await super.execute(input);
    } catch (error) {
      // Error codes are a fixed set; anything else is an internal failure.
      this.metrics.triggers.inc({ outcome: 'rejected', reason: error instanceof DomainError ? error.code.toLowerCase() : 'internal_error' });
      throw error;
    }
    if (result.status === 'processed') this.metrics.triggers.inc({ outcome: 'accepted' });
    else if (!result.acknowledged) this.metrics.triggers.inc({ outcome: 'deduplicated' });
    else this.metrics.triggers.inc({ outcome: 'rejected', reason: result.status });
    return result;
  }
}

/** FanOutEvent that counts the topic recipients it expanded and those their preferences filtered out. */
export class MeteredFanOutEvent extends FanOutEvent {
  constructor(
    events: EventRepository,
    options: FanOutOptions,
    private readonly metrics: HeraldMetrics,
  ) {
    super(events, options);
  }

  override async execute(eventId: string): Promise<{ notifications: number; filtered: number }> {
    const totals = await super.execute(eventId);
    if (totals.notifications) this.metrics.fanoutRecipients.inc({ outcome: 'expanded' }, totals.notifications);
    if (totals.filtered) this.metrics.fanoutRecipients.inc({ outcome: 'filtered' }, totals.filtered);
    return totals;
  }
}
