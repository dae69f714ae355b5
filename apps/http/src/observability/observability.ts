import { DeliveryObservers, FanOutEvent, TriggerEvent, type FanOutOptions, type EventRepository, type IntegrationRepository, type ProviderRegistry, type RunNotifications, type StepHandlers } from '@herald/domain';
import type { Logger } from 'pino';
import { DeliveryLogObserver } from './delivery-log-observer';
import { DeliveryMetricsObserver } from './delivery-metrics-observer';
import { WebhookDispatchLog } from './webhook-dispatch-log';
import { ReceiptLog } from './receipt-log';
import { MeteredFanOutEvent, MeteredTriggerEvent } from './metered-use-cases';
import type { HeraldMetrics } from './metrics';
import { TimedProviderRegistry } from './timed-provider-registry';
import { noTracing, type Tracing } from './tracing';

/**
 * Metrics (when enabled) and tracing (when configured), applied by the composition root as
 * decorators of ports and use cases. Switched off, each returns what it was given: no cost.
 */
export class Observability {
  constructor(
    readonly metrics: HeraldMetrics | undefined = undefined,
    readonly tracing: Tracing = noTracing,
  ) {}

  triggerEvent(events: EventRepository, integrations: Pick<IntegrationRepository, 'list'>, steps?: RunNotifications): TriggerEvent {
    return this.metrics ? new MeteredTriggerEvent(events, integrations, this.metrics, steps) : new TriggerEvent(events, integrations, steps);
  }

  fanOutEvent(events: EventRepository, options: FanOutOptions): FanOutEvent {
    return this.metrics ? new MeteredFanOutEvent(events, options, this.metrics) : new FanOutEvent(events, options);
  }

  eventRepository(events: EventRepository): EventRepository {
    return this.tracing.events(events);
  }

  providers(registry: ProviderRegistry): ProviderRegistry {
    const metrics = this.metrics;
    const timed = metrics
      ? new TimedProviderRegistry(registry, (provider, seconds, error) => metrics.providerCalls.observe({ provider, result: error ? 'error' : 'success' }, seconds))
      : registry;
    return this.tracing.providers(timed);
  }

  stepHandlers(handlers: StepHandlers): StepHandlers {
    return this.tracing.steps(handlers);
  }

  /** Failed attempts and steps are always logged; counted when metrics are on. */
  deliveryObservers(logger: Logger): DeliveryObservers {
    const observers = new DeliveryObservers([new DeliveryLogObserver(logger)]);
    if (this.metrics) observers.add(new DeliveryMetricsObserver(this.metrics));
    return observers;
  }

  /** Disabled endpoints are always logged for the operator; attempts and disables counted when metrics are on. */
  webhookObserver(logger: Logger): WebhookDispatchLog {
    return new WebhookDispatchLog(logger, this.metrics);
  }

  /** Refused receipt calls are logged (a misconfigured webhook or a forger); every outcome counted when metrics are on. */
  receiptObserver(logger: Logger): ReceiptLog {
    return new ReceiptLog(logger, this.metrics);
  }
}
