import type { DeliveryQueue } from '../../ports/delivery-queue';
import type { FanOutEvent } from './fan-out-event';
import type { RunNotifications } from './run-notifications';

/** Connects the queue to the use cases that do the work: fan-out per event, steps per notification batch. */
export class StartDeliveryWorkers {
  constructor(
    private readonly queue: DeliveryQueue,
    private readonly fanOut: FanOutEvent,
    private readonly run: RunNotifications,
  ) {}

  async execute(): Promise<void> {
    // Due delayed work has a lane of its own, so a backlog of queued batches never makes it late.
    const due = this.run.lane();
    await this.queue.consume({
      fanout: async (eventIds) => {
        for (const id of eventIds) await this.fanOut.execute(id);
      },
      steps: async (notificationIds) => {
        await this.run.execute(notificationIds);
      },
      dueSteps: async (notificationIds) => {
        await due.execute(notificationIds);
      },
    });
  }
}
