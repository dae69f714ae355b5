import type { DeliveryObserver } from '../ports/delivery-observer';
import type { JobOutcome } from '../ports/job-repository';

/** The DeliveryObserver double: keeps each slice it hears, as it heard it. */
export class RecordingDeliveryObserver implements DeliveryObserver {
  readonly slices: JobOutcome[][] = [];

  recorded(outcomes: readonly JobOutcome[]): void {
    this.slices.push([...outcomes]);
  }
}
