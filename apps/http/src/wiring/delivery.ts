import { randomUUID } from 'node:crypto';
import {
  ChannelCredentialCipher,
  GuardedHttpClient,
  PgBossDeliveryQueue,
  PgDueWorkWaker,
  ProcessLiveness,
  SqlDigestRepository,
  SqlEventRepository,
  SqlJobRepository,
  SqlSendRateLimiter,
  SqlThrottleRepository,
  SqlWorkerRegistry,
  StaticProviderRegistry,
} from '@herald/adapters';
import {
  BridgeStepRunner,
  ChannelConnectionRepository,
  ChannelStepHandler,
  CustomStepHandler,
  DelayStepHandler,
  DeliveryObserver,
  DeliveryObservers,
  DeliveryQueue,
  DigestRepository,
  DigestStepHandler,
  EventRepository,
  FanOutEvent,
  HttpClient,
  HttpRequestStepHandler,
  InAppStepHandler,
  IntegrationRepository,
  JobRepository,
  OverviewTally,
  ProviderRegistry,
  PurgeClosedThrottleWindows,
  RecoverDeadWorkers,
  RecoverStalledWork,
  RunNotifications,
  SendGate,
  SendRateLimiter,
  StartDeliveryWorkers,
  SubscriberRepository,
  TenancyRepository,
  ThrottleRepository,
  ThrottleStepHandler,
  TriggerEvent,
  WorkerRegistry,
  providerCatalogue,
  withBridge,
  type ChannelDelivery,
} from '@herald/domain';
import { talliedEvents } from '../observability/tallied-events';
import { all, type Wiring } from './binder';

/** Triggers, topic fan-out, the step engine and its workers, providers, and recovery from dead processes. */
export const delivery: Wiring = (bind, { db, boss, logger, config, observability }) => {
  const dueWork = new PgDueWorkWaker(db.pool, logger);
  const queue = new PgBossDeliveryQueue(boss, logger, dueWork);
  bind.value(PgBossDeliveryQueue, queue);
  bind.value(DeliveryQueue, queue);
  // Worker processes see each other die through PostgreSQL (an advisory lock each), and resume a dead one's work.
  const liveness = new ProcessLiveness(db.pool.options, randomUUID(), (err) => logger.warn({ err }, 'worker liveness connection lost; registering again'));
  const workers = new SqlWorkerRegistry(db.pool, queue, liveness);
  bind.value(WorkerRegistry, workers);
  // Each accepted trigger is told to the Overview's tally (wiring/overview.ts), after its commit.
  bind.factory(EventRepository, [OverviewTally, ChannelCredentialCipher], (tally, channels) =>
    talliedEvents(observability.eventRepository(new SqlEventRepository(db.pool, queue, channels, workers.workerId)), tally),
  );
  bind.factory(JobRepository, [ChannelCredentialCipher], (channels) => new SqlJobRepository(db.workerPool, queue, channels, workers.workerId));
  bind.value(DigestRepository, new SqlDigestRepository(db.workerPool));
  bind.value(ThrottleRepository, new SqlThrottleRepository(db.workerPool));
  // Integrations' send rates hold across processes (a slot row per integration in PostgreSQL).
  bind.value(SendRateLimiter, new SqlSendRateLimiter(db.workerPool));
  // One gate per process: it holds each integration's connection permits.
  bind.factory(SendGate, [SendRateLimiter], (limiter) => new SendGate(limiter));

  const http = new GuardedHttpClient(config.allowPrivateNetworks);
  bind.value(HttpClient, http);
  const registry = new StaticProviderRegistry(config.serviceName, http, { allowPrivateNetworks: config.allowPrivateNetworks, endpoints: config.providerEndpoints });
  bind.value(ProviderRegistry, observability.providers(registry));

  // Metrics and logs listen to every recorded step (other areas add theirs); the waker learns of delayed work.
  bind.add(DeliveryObserver, observability.deliveryObservers(logger));
  bind.add(DeliveryObserver, dueWork);

  const sinks = new Set(providerCatalogue(config.serviceName).builtIns.filter((b) => b.channel !== 'in_app').map((b) => b.providerId));
  bind.factory(
    RunNotifications,
    [JobRepository, IntegrationRepository, ProviderRegistry, HttpClient, TenancyRepository, SubscriberRepository, ChannelConnectionRepository, DigestRepository, ThrottleRepository, BridgeStepRunner, SendGate, all(DeliveryObserver)],
    (jobs, integrations, providers, httpClient, tenancy, subscribers, chatRoutes, digests, throttles, bridge, gate, observers) => {
      const channel: ChannelDelivery = { integrations, providers, tenancy, subscribers, sinks, defaultPolicy: config.retryPolicy, chatRoutes, gate };
      const handlers = observability.stepHandlers({
        in_app: new InAppStepHandler(config.serviceName),
        email: new ChannelStepHandler('email', channel),
        sms: new ChannelStepHandler('sms', channel),
        chat: new ChannelStepHandler('chat', channel),
        push: new ChannelStepHandler('push', channel),
        custom: new CustomStepHandler(),
        delay: new DelayStepHandler(),
        http_request: new HttpRequestStepHandler(httpClient, tenancy, config.serviceName),
        digest: new DigestStepHandler(digests),
        throttle: new ThrottleStepHandler(throttles),
      });
      // Steps of workflows synced from code ask their bridge first (wiring/workflows-as-code.ts).
      return new RunNotifications(jobs, withBridge(handlers, bridge), new DeliveryObservers(observers));
    },
  );
  // A trigger runs a workflow's first in-app step itself for existing recipients, and a topic
  // fan-out does the same for each chunk, both with the step engine.
  bind.factory(TriggerEvent, [EventRepository, IntegrationRepository, RunNotifications], (events, integrations, steps) => observability.triggerEvent(events, integrations, steps));
  bind.factory(FanOutEvent, [EventRepository, RunNotifications], (events, steps) => observability.fanOutEvent(events, { steps }));
  bind.construct(StartDeliveryWorkers, [DeliveryQueue, FanOutEvent, RunNotifications]);
  bind.factory(RecoverStalledWork, [JobRepository], (jobs) => new RecoverStalledWork(jobs, 30_000));
  bind.construct(RecoverDeadWorkers, [WorkerRegistry]);
  bind.construct(PurgeClosedThrottleWindows, [ThrottleRepository]);
};
