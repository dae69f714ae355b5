import { token } from '../shared/token';
import type { JobOutcome } from './job-repository';

export const DeliveryObserver = token<DeliveryObserver>('DeliveryObserver');

/**
 * Told what each slice of step runs produced, once it is recorded: metrics, logs and live inbox
 * updates listen here. Called on the delivery hot path: it must be cheap, must not throw, and
 * must not block (anything slow is its own business, done after it returns).
 */
export interface DeliveryObserver {
  recorded(outcomes: readonly JobOutcome[]): void;
}

/** Tells every observer in turn; one that throws does not keep the others from hearing. */
export class DeliveryObservers implements DeliveryObserver {
  constructor(private readonly observers: DeliveryObserver[] = []) {}

  add(observer: DeliveryObserver): void {
    this.observers.push(observer);
  }

  recorded(outcomes: readonly JobOutcome[]): void {
    for (const observer of this.observers) {
      try {
        observer.recorded(outcomes);
      } catch {
        // An observer's failure is never a delivery failure.
      }
    }
  }
}
