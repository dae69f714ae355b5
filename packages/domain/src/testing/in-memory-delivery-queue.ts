import type { DeliveryQueue, DeliveryWorkHandlers } from '../ports/delivery-queue';

interface Unit {
  kind: 'fanout' | 'steps';
  ids: string[];
  /** Failed runs so far: the next waits retryMs * 2^failures. */
  failures: number;
  availableAt: number;
  taken: boolean;
}

/** The queue every process of one installation consumes: work as the repositories enqueue it. */
export class InMemoryDeliveryBroker {
  readonly units: Unit[] = [];

  constructor(readonly retryMs = 50) {}

  /** Work committed by a repository: a fan-out unit per event, one steps unit for the notifications. */
  enqueue(work: { fanout?: string[]; steps?: string[] }): void {
    const unit = (kind: Unit['kind'], ids: string[]): Unit => ({ kind, ids, failures: 0, availableAt: Date.now(), taken: false });
    for (const id of work.fanout ?? []) this.units.push(unit('fanout', [id]));
    if (work.steps?.length) this.units.push(unit('steps', [...work.steps]));
  }

  /** The oldest available unit, now held by the caller alone. */
  take(): Unit | undefined {
    const unit = this.units.find((u) => !u.taken && u.availableAt <= Date.now());
    if (unit) unit.taken = true;
    return unit;
  }

  settle(unit: Unit, failed: boolean): void {
    if (!failed) this.units.splice(this.units.indexOf(unit), 1);
    else Object.assign(unit, { taken: false, failures: unit.failures + 1, availableAt: Date.now() + this.retryMs * 2 ** unit.failures });
  }
}

/**
 * The DeliveryQueue double: one process consuming the broker it shares with the others. A unit is
 * handed to one consumer at a time; a handler that throws has its unit retried with backoff.
 * `delivery-queue-contract.ts` holds it to pg-boss's behaviour.
 */
export class InMemoryDeliveryQueue implements DeliveryQueue {
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(readonly broker = new InMemoryDeliveryBroker()) {}

  async consume(handlers: DeliveryWorkHandlers): Promise<void> {
    this.timer ??= setInterval(() => {
      for (let unit = this.broker.take(); unit; unit = this.broker.take()) {
        const taken = unit;
        const run = (taken.kind === 'fanout' ? handlers.fanout(taken.ids) : handlers.steps(taken.ids)).then(
          () => this.broker.settle(taken, false),
          () => this.broker.settle(taken, true),
        );
        this.running.add(run);
        void run.finally(() => this.running.delete(run));
      }
    }, 5);
  }

  /** Takes no more work, and returns once the work in hand is done. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.running);
  }
}
