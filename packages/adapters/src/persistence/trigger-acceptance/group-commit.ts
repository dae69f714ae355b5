/** Items written by one batch at most. */
const MAX_BATCH = 200;
/** Batches in flight at once; further items wait and are written together by the next one. */
const MAX_IN_FLIGHT = 4;
/**
 * Items that must be waiting before a batch starts while another is in flight. An item that finds
 * none in flight goes straight through; under load, waiting a few milliseconds for the batch in
 * flight makes batches of about this size instead of one-item batches, and most of a batch's cost is
 * per statement and round trip, not per item: under `pnpm bench trigger` (32 connections) batches
 * average about 14 triggers instead of mostly one, and PostgreSQL spends about a third less CPU per
 * trigger.
 */
const MIN_BATCH_ALONGSIDE = 16;
/** The longest items wait for a batch in flight before they go beside it, however few. */
const MAX_WAIT_MS = 25;

/** An item with the promise its caller waits on. */
export interface Waiter<O> {
  resolve(outcome: O): void;
  reject(error: unknown): void;
}

/** How a group commit writes: a batch in one go, and, when that fails, each of its items alone. */
export interface BatchWriter<T, O> {
  /** The outcomes of the batch's items, in order; throws if any item fails the batch. */
  writeBatch(batch: T[]): Promise<O[]>;
  writeAlone(item: T): Promise<O>;
}

/**
 * Group commit: concurrent items are written together, one transaction for many, so throughput grows
 * with load while a lone item still goes straight through. Each caller gets its own outcome only
 * after its batch is written. One bad item must not fail the others: a batch that fails is written
 * again item by item, and each caller gets that outcome or error.
 */
export class GroupCommit<T extends Waiter<O>, O> {
  private readonly waiting: T[] = [];
  private inFlight = 0;
  /** Set while items wait for a batch in flight: when it fires, they go whatever their number. */
  private waitLimit: NodeJS.Timeout | undefined;

  constructor(
    private readonly writer: BatchWriter<T, O>,
    /** The longest an item waits for a batch in flight (one held up by a lock, say) before it goes beside it. */
    private readonly maxWaitMs = MAX_WAIT_MS,
  ) {}

  add(item: T): void {
    this.waiting.push(item);
    this.pump();
  }

  private pump(waitedEnough = false): void {
    while (this.waiting.length && this.inFlight < MAX_IN_FLIGHT && (this.inFlight === 0 || waitedEnough || this.waiting.length >= MIN_BATCH_ALONGSIDE)) {
      clearTimeout(this.waitLimit);
      this.waitLimit = undefined;
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
    if (this.waiting.length && !this.waitLimit) {
      this.waitLimit = setTimeout(() => {
        this.waitLimit = undefined;
        this.pump(true);
      }, this.maxWaitMs);
    }
  }

  private async flush(batch: T[]): Promise<void> {
    try {
      const outcomes = await this.writer.writeBatch(batch);
      batch.forEach((p, i) => p.resolve(outcomes[i]));
    } catch {
      for (const p of batch) await this.writer.writeAlone(p).then((o) => p.resolve(o), (error: unknown) => p.reject(error));
    }
  }
}
