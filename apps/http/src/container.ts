import 'reflect-metadata';
import {
  AuthenticateApiKey,
  BootstrapOrganization,
  BulkCreateSubscribers,
  ConfigureInboxSecurity,
  CreateSubscriber,
  DeleteSubscriber,
  GetSubscriber,
  ManageApiKeys,
  SearchSubscribers,
  SetSubscriberOnlineStatus,
  SubscriberRepository,
  TenancyRepository,
  UpdateSubscriber,
} from '@herald/domain';
import { PrismaSubscriberRepository, PrismaTenancyRepository, type Database } from '@herald/adapters';
import {
  DeleteTopic,
  GetSubscriberPreferences,
  GetTopic,
  GetTopicSubscription,
  ListSubscriberSubscriptions,
  ListTopicSubscriptions,
  PreferenceRepository,
  SearchTopics,
  SubscribeToTopic,
  TopicRepository,
  UnsubscribeFromTopic,
  UpdateSubscriberPreferences,
  UpdateTopic,
  UpdateTopicSubscription,
  UpsertTopic,
} from '@herald/domain';
import { PrismaPreferenceRepository, PrismaTopicRepository } from '@herald/adapters';
import { ClaimIdempotencyKey, IdempotencyStore, PurgeClosedThrottleWindows, PurgeExpiredIdempotencyKeys, Scheduler } from '@herald/domain';
import { PgBossScheduler, PrismaIdempotencyStore, type PgBoss } from '@herald/adapters';
import type { Logger } from 'pino';
import {
  ChannelStepHandler,
  type ChannelDelivery,
  HttpClient,
  HttpRequestStepHandler,
  ProviderRegistry,
  CustomStepHandler,
  DelayStepHandler,
  DeliveryObserver,
  DeliveryObservers,
  DeliveryQueue,
  EventRepository,
  FanOutEvent,
  InAppStepHandler,
  JobRepository,
  RecoverStalledWork,
  RunNotifications,
  StartDeliveryWorkers,
  TriggerEvent,
} from '@herald/domain';
import { GuardedHttpClient, PgBossDeliveryQueue, SqlEventRepository, SqlJobRepository, StaticProviderRegistry } from '@herald/adapters';
import { DigestRepository, DigestStepHandler, ThrottleRepository, ThrottleStepHandler } from '@herald/domain';
import { PgDueWorkWaker, SqlDigestRepository, SqlThrottleRepository } from '@herald/adapters';
import { RecoverDeadWorkers, WorkerRegistry } from '@herald/domain';
import { ProcessLiveness, SqlWorkerRegistry } from '@herald/adapters';
import { randomUUID } from 'node:crypto';
import {
  ChannelConnectionRepository,
  ChannelEndpointRepository,
  CreateChannelConnection,
  CreateChannelEndpoint,
  CreateIntegration,
  CredentialCipher,
  DeleteChannelConnection,
  DeleteChannelEndpoint,
  DeleteIntegration,
  EnsureBuiltInIntegrations,
  GetChannelConnection,
  GetChannelEndpoint,
  IntegrationRepository,
  ListChannelConnections,
  ListChannelEndpoints,
  ListIntegrations,
  ListOutbox,
  OutboxRepository,
  ProviderCatalogue,
  SetPrimaryIntegration,
  UpdateChannelConnection,
  UpdateChannelEndpoint,
  UpdateIntegration,
  providerCatalogue,
} from '@herald/domain';
import {
  AesGcmCredentialCipher,
  PrismaChannelConnectionRepository,
  PrismaChannelEndpointRepository,
  PrismaIntegrationRepository,
  PrismaOutboxRepository,
  loadEncryptionKey,
} from '@herald/adapters';
import {
  CreateWorkflow,
  DeleteWorkflow,
  GetWorkflow,
  ListWorkflows,
  PatchWorkflow,
  PreviewStep,
  UpdateWorkflow,
  WorkflowRepository,
} from '@herald/domain';
import { PrismaWorkflowRepository } from '@herald/adapters';
import {
  ActivityRepository,
  ChangeInboxNotification,
  ChangeInboxNotifications,
  CompleteInboxAction,
  CountInboxNotifications,
  DeleteInboxNotification,
  GetActivityNotification,
  InboxRepository,
  ListActivity,
  ListInboxNotifications,
} from '@herald/domain';
import { SqlActivityRepository, SqlInboxRepository } from '@herald/adapters';
import { AuthenticateSubscriberToken, GetEnvironment, InboxFeed, InboxLiveObserver, ReadLiveInboxChanges, StartInboxSession, SubscriberTokens } from '@herald/domain';
import { HmacSubscriberTokens, PgInboxFeed } from '@herald/adapters';
import { InboxOrigins } from './platform/inbox-cors';
import { Container } from 'inversify';
import { BridgeStepRunner, withBridge } from '@herald/domain';
import { bindWorkflowsAsCode } from './wiring/workflows-as-code';
import type { Config } from './config';
import { Observability } from './observability/observability';
import type { Resolver } from './platform/app-env';

export const DatabaseToken = Symbol.for('Database');
export const ConfigToken = Symbol.for('Config');

/**
 * The composition root: the only place that knows which adapter implements which port.
 * Bindings name their dependencies explicitly (no decorator metadata), so the same wiring works
 * under tsx, tsc and vitest.
 */
export function buildContainer(config: Config, db: Database, boss: PgBoss, logger: Logger, observability = new Observability()): Resolver {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<Config>(ConfigToken).toConstantValue(config);
  container.bind<Database>(DatabaseToken).toConstantValue(db);

  // Ports -> adapters
  // API key secrets are kept encrypted with the installation key (inbox HMAC checks need them).
  const tenancyCipher = new AesGcmCredentialCipher(loadEncryptionKey({ configured: config.encryptionKey, dataDir: config.dataDir }));
  container.bind<TenancyRepository>(TenancyRepository).toConstantValue(new PrismaTenancyRepository(db.prisma, tenancyCipher));
  container.bind<SubscriberRepository>(SubscriberRepository).toConstantValue(new PrismaSubscriberRepository(db.prisma, db.pool));

  // Use cases
  const useCase = <T, D extends unknown[]>(token: new (...args: any[]) => T, factory: (...deps: D) => T, deps: symbol[]) =>
    container.bind<T>(token).toResolvedValue(factory as (...args: unknown[]) => T, deps);
  useCase(AuthenticateApiKey, (t: TenancyRepository) => new AuthenticateApiKey(t), [TenancyRepository]);
  useCase(BootstrapOrganization, (t: TenancyRepository) => new BootstrapOrganization(t), [TenancyRepository]);
  useCase(ManageApiKeys, (t: TenancyRepository) => new ManageApiKeys(t), [TenancyRepository]);
  useCase(ConfigureInboxSecurity, (t: TenancyRepository) => new ConfigureInboxSecurity(t), [TenancyRepository]);
  useCase(GetEnvironment, (t: TenancyRepository) => new GetEnvironment(t), [TenancyRepository]);
  useCase(CreateSubscriber, (s: SubscriberRepository) => new CreateSubscriber(s), [SubscriberRepository]);
  useCase(GetSubscriber, (s: SubscriberRepository) => new GetSubscriber(s), [SubscriberRepository]);
  useCase(UpdateSubscriber, (s: SubscriberRepository) => new UpdateSubscriber(s), [SubscriberRepository]);
  useCase(DeleteSubscriber, (s: SubscriberRepository) => new DeleteSubscriber(s), [SubscriberRepository]);
  useCase(SetSubscriberOnlineStatus, (s: SubscriberRepository) => new SetSubscriberOnlineStatus(s), [SubscriberRepository]);
  useCase(SearchSubscribers, (s: SubscriberRepository) => new SearchSubscribers(s), [SubscriberRepository]);
  useCase(BulkCreateSubscribers, (s: SubscriberRepository) => new BulkCreateSubscribers(s), [SubscriberRepository]);

  // Topics, subscriptions and subscriber preferences
  container.bind<TopicRepository>(TopicRepository).toConstantValue(new PrismaTopicRepository(db.prisma, db.pool));
  container.bind<PreferenceRepository>(PreferenceRepository).toConstantValue(new PrismaPreferenceRepository(db.prisma, db.pool));
  useCase(UpsertTopic, (t: TopicRepository) => new UpsertTopic(t), [TopicRepository]);
  useCase(GetTopic, (t: TopicRepository) => new GetTopic(t), [TopicRepository]);
  useCase(SearchTopics, (t: TopicRepository) => new SearchTopics(t), [TopicRepository]);
  useCase(UpdateTopic, (t: TopicRepository) => new UpdateTopic(t), [TopicRepository]);
  useCase(DeleteTopic, (t: TopicRepository) => new DeleteTopic(t), [TopicRepository]);
  useCase(SubscribeToTopic, (t: TopicRepository, p: PreferenceRepository) => new SubscribeToTopic(t, p), [TopicRepository, PreferenceRepository]);
  useCase(UnsubscribeFromTopic, (t: TopicRepository) => new UnsubscribeFromTopic(t), [TopicRepository]);
  useCase(ListTopicSubscriptions, (t: TopicRepository) => new ListTopicSubscriptions(t), [TopicRepository]);
  useCase(ListSubscriberSubscriptions, (t: TopicRepository, s: SubscriberRepository) => new ListSubscriberSubscriptions(t, s), [TopicRepository, SubscriberRepository]);
  useCase(GetTopicSubscription, (t: TopicRepository, p: PreferenceRepository) => new GetTopicSubscription(t, p), [TopicRepository, PreferenceRepository]);
  useCase(UpdateTopicSubscription, (t: TopicRepository, p: PreferenceRepository) => new UpdateTopicSubscription(t, p), [TopicRepository, PreferenceRepository]);
  useCase(GetSubscriberPreferences, (p: PreferenceRepository) => new GetSubscriberPreferences(p), [PreferenceRepository]);
  useCase(UpdateSubscriberPreferences, (p: PreferenceRepository) => new UpdateSubscriberPreferences(p), [PreferenceRepository]);

  // Idempotency keys and scheduled housekeeping
  container.bind<IdempotencyStore>(IdempotencyStore).toConstantValue(new PrismaIdempotencyStore(db.pool));
  container.bind<Scheduler>(Scheduler).toConstantValue(new PgBossScheduler(boss, logger));
  useCase(ClaimIdempotencyKey, (i: IdempotencyStore) => new ClaimIdempotencyKey(i), [IdempotencyStore]);
  useCase(PurgeExpiredIdempotencyKeys, (i: IdempotencyStore) => new PurgeExpiredIdempotencyKeys(i), [IdempotencyStore]);

  // Delivery: trigger, fan-out and the step engine
  const dueWork = new PgDueWorkWaker(db.pool, logger);
  const deliveryQueue = new PgBossDeliveryQueue(boss, logger, dueWork);
  container.bind<PgBossDeliveryQueue>(PgBossDeliveryQueue).toConstantValue(deliveryQueue);
  container.bind<DeliveryQueue>(DeliveryQueue).toConstantValue(deliveryQueue);
  // Worker processes see each other die through PostgreSQL (an advisory lock each), and resume a dead one's work.
  const liveness = new ProcessLiveness(db.pool.options, randomUUID(), (err) => logger.warn({ err }, 'worker liveness connection lost; registering again'));
  const workers = new SqlWorkerRegistry(db.pool, deliveryQueue, liveness);
  container.bind<WorkerRegistry>(WorkerRegistry).toConstantValue(workers);
  container.bind<EventRepository>(EventRepository).toConstantValue(observability.eventRepository(new SqlEventRepository(db.pool, deliveryQueue, workers.workerId)));
  container.bind<JobRepository>(JobRepository).toConstantValue(new SqlJobRepository(db.workerPool, deliveryQueue, workers.workerId));
  // A trigger runs a workflow's first in-app step itself for existing recipients, with the step engine (inlineStep).
  container
    .bind(TriggerEvent)
    .toResolvedValue(
      (e: EventRepository, i: IntegrationRepository, steps: RunNotifications) => observability.triggerEvent(e, i, steps),
      [EventRepository, IntegrationRepository, RunNotifications],
    );
  const httpClient = new GuardedHttpClient(config.allowPrivateNetworks);
  container.bind<HttpClient>(HttpClient).toConstantValue(httpClient);
  container.bind<ProviderRegistry>(ProviderRegistry).toConstantValue(observability.providers(new StaticProviderRegistry(config.serviceName, httpClient, { allowPrivateNetworks: config.allowPrivateNetworks, endpoints: config.providerEndpoints })));
  const sinks = new Set(providerCatalogue(config.serviceName).builtIns.filter((b) => b.channel !== 'in_app').map((b) => b.providerId));
  const subscribers = container.get<SubscriberRepository>(SubscriberRepository);
  const channelDelivery = (integrations: IntegrationRepository, providers: ProviderRegistry, tenancy: TenancyRepository): ChannelDelivery =>
    ({ integrations, providers, tenancy, subscribers, sinks, defaultPolicy: config.retryPolicy, chatRoutes: container.get<ChannelConnectionRepository>(ChannelConnectionRepository) });
  // Metrics, logs and live inbox updates register here (DeliveryObservers.add) as they are wired.
  container.bind<DeliveryObservers>(DeliveryObserver).toConstantValue(observability.deliveryObservers(logger));
  container.get<DeliveryObservers>(DeliveryObserver).add(dueWork);
  container.bind<DigestRepository>(DigestRepository).toConstantValue(new SqlDigestRepository(db.workerPool));
  container.bind<ThrottleRepository>(ThrottleRepository).toConstantValue(new SqlThrottleRepository(db.workerPool));
  const digests = new DigestStepHandler(container.get<DigestRepository>(DigestRepository));
  const throttles = new ThrottleStepHandler(container.get<ThrottleRepository>(ThrottleRepository));
  useCase(PurgeClosedThrottleWindows, (t: ThrottleRepository) => new PurgeClosedThrottleWindows(t), [ThrottleRepository]);
  useCase(
    RunNotifications,
    (jobs: JobRepository, integrations: IntegrationRepository, providers: ProviderRegistry, http: HttpClient, tenancy: TenancyRepository, observers: DeliveryObservers) =>
      new RunNotifications(jobs, withBridge(observability.stepHandlers({
        in_app: new InAppStepHandler(config.serviceName),
        email: new ChannelStepHandler('email', channelDelivery(integrations, providers, tenancy)),
        sms: new ChannelStepHandler('sms', channelDelivery(integrations, providers, tenancy)),
        chat: new ChannelStepHandler('chat', channelDelivery(integrations, providers, tenancy)),
        push: new ChannelStepHandler('push', channelDelivery(integrations, providers, tenancy)),
        custom: new CustomStepHandler(),
        delay: new DelayStepHandler(),
        http_request: new HttpRequestStepHandler(http, tenancy, config.serviceName),
        digest: digests,
        throttle: throttles,
      }), container.get(BridgeStepRunner)), observers),
    [JobRepository, IntegrationRepository, ProviderRegistry, HttpClient, TenancyRepository, DeliveryObserver],
  );
  // A topic fan-out runs a workflow's first in-app step itself, with the same engine (FanOutEvent).
  container
    .bind(FanOutEvent)
    .toResolvedValue((e: EventRepository, steps: RunNotifications) => observability.fanOutEvent(e, { steps }), [EventRepository, RunNotifications]);
  useCase(RecoverStalledWork, (jobs: JobRepository) => new RecoverStalledWork(jobs, 30_000), [JobRepository]);
  useCase(RecoverDeadWorkers, (w: WorkerRegistry) => new RecoverDeadWorkers(w), [WorkerRegistry]);
  container
    .bind(StartDeliveryWorkers)
    .toResolvedValue((q: DeliveryQueue, f: FanOutEvent, r: RunNotifications) => new StartDeliveryWorkers(q, f, r), [DeliveryQueue, FanOutEvent, RunNotifications]);

  // Integrations, channel connections and endpoints; secrets are encrypted with one key per installation
  const catalogue = providerCatalogue(config.serviceName);
  container.bind<ProviderCatalogue>(ProviderCatalogue).toConstantValue(catalogue);
  const cipher = new AesGcmCredentialCipher(loadEncryptionKey({ configured: config.encryptionKey, dataDir: config.dataDir }));
  container.bind<CredentialCipher>(CredentialCipher).toConstantValue(cipher);
  container.bind<IntegrationRepository>(IntegrationRepository).toConstantValue(new PrismaIntegrationRepository(db.prisma, cipher));
  container.bind<ChannelConnectionRepository>(ChannelConnectionRepository).toConstantValue(new PrismaChannelConnectionRepository(db.prisma, cipher));
  container.bind<ChannelEndpointRepository>(ChannelEndpointRepository).toConstantValue(new PrismaChannelEndpointRepository(db.prisma));
  container.bind<OutboxRepository>(OutboxRepository).toConstantValue(new PrismaOutboxRepository(db.prisma));
  useCase(CreateIntegration, (i: IntegrationRepository) => new CreateIntegration(catalogue, i), [IntegrationRepository]);
  useCase(UpdateIntegration, (i: IntegrationRepository) => new UpdateIntegration(catalogue, i), [IntegrationRepository]);
  useCase(ListIntegrations, (i: IntegrationRepository) => new ListIntegrations(i), [IntegrationRepository]);
  useCase(SetPrimaryIntegration, (i: IntegrationRepository) => new SetPrimaryIntegration(i), [IntegrationRepository]);
  useCase(DeleteIntegration, (i: IntegrationRepository) => new DeleteIntegration(i), [IntegrationRepository]);
  useCase(EnsureBuiltInIntegrations, (i: IntegrationRepository) => new EnsureBuiltInIntegrations(catalogue, i), [IntegrationRepository]);
  useCase(ListOutbox, (o: OutboxRepository) => new ListOutbox(catalogue, o), [OutboxRepository]);
  useCase(
    CreateChannelConnection,
    (i: IntegrationRepository, s: SubscriberRepository, c: ChannelConnectionRepository) => new CreateChannelConnection(i, s, c),
    [IntegrationRepository, SubscriberRepository, ChannelConnectionRepository],
  );
  useCase(GetChannelConnection, (c: ChannelConnectionRepository) => new GetChannelConnection(c), [ChannelConnectionRepository]);
  useCase(ListChannelConnections, (c: ChannelConnectionRepository) => new ListChannelConnections(c), [ChannelConnectionRepository]);
  useCase(UpdateChannelConnection, (c: ChannelConnectionRepository) => new UpdateChannelConnection(c), [ChannelConnectionRepository]);
  useCase(DeleteChannelConnection, (c: ChannelConnectionRepository) => new DeleteChannelConnection(c), [ChannelConnectionRepository]);
  useCase(
    CreateChannelEndpoint,
    (i: IntegrationRepository, s: SubscriberRepository, c: ChannelConnectionRepository, e: ChannelEndpointRepository) =>
      new CreateChannelEndpoint(catalogue, i, s, c, e),
    [IntegrationRepository, SubscriberRepository, ChannelConnectionRepository, ChannelEndpointRepository],
  );
  useCase(GetChannelEndpoint, (e: ChannelEndpointRepository) => new GetChannelEndpoint(e), [ChannelEndpointRepository]);
  useCase(ListChannelEndpoints, (e: ChannelEndpointRepository) => new ListChannelEndpoints(e), [ChannelEndpointRepository]);
  useCase(UpdateChannelEndpoint, (e: ChannelEndpointRepository) => new UpdateChannelEndpoint(e), [ChannelEndpointRepository]);
  useCase(DeleteChannelEndpoint, (e: ChannelEndpointRepository) => new DeleteChannelEndpoint(e), [ChannelEndpointRepository]);

  // Workflows and step preview; issues need the environment's active integrations
  container.bind<WorkflowRepository>(WorkflowRepository).toConstantValue(new PrismaWorkflowRepository(db.prisma));
  const withChannels = [WorkflowRepository, IntegrationRepository];
  useCase(CreateWorkflow, (w: WorkflowRepository, i: IntegrationRepository) => new CreateWorkflow(w, i), withChannels);
  useCase(GetWorkflow, (w: WorkflowRepository, i: IntegrationRepository) => new GetWorkflow(w, i), withChannels);
  useCase(ListWorkflows, (w: WorkflowRepository, i: IntegrationRepository) => new ListWorkflows(w, i), withChannels);
  useCase(UpdateWorkflow, (w: WorkflowRepository, i: IntegrationRepository) => new UpdateWorkflow(w, i), withChannels);
  useCase(PatchWorkflow, (w: WorkflowRepository, i: IntegrationRepository) => new PatchWorkflow(w, i), withChannels);
  useCase(DeleteWorkflow, (w: WorkflowRepository) => new DeleteWorkflow(w), [WorkflowRepository]);
  useCase(PreviewStep, (w: WorkflowRepository, t: TenancyRepository) => new PreviewStep(w, t), [WorkflowRepository, TenancyRepository]);

  // The activity log and the subscribers' in-app inboxes (reads of the delivery tables)
  container.bind<ActivityRepository>(ActivityRepository).toConstantValue(new SqlActivityRepository(db.pool));
  container.bind<InboxRepository>(InboxRepository).toConstantValue(new SqlInboxRepository(db.pool));
  useCase(ListActivity, (a: ActivityRepository) => new ListActivity(a), [ActivityRepository]);
  useCase(GetActivityNotification, (a: ActivityRepository) => new GetActivityNotification(a), [ActivityRepository]);
  useCase(ListInboxNotifications, (i: InboxRepository) => new ListInboxNotifications(i), [InboxRepository]);
  useCase(CountInboxNotifications, (i: InboxRepository) => new CountInboxNotifications(i), [InboxRepository]);
  useCase(ChangeInboxNotification, (i: InboxRepository) => new ChangeInboxNotification(i), [InboxRepository]);
  useCase(DeleteInboxNotification, (i: InboxRepository) => new DeleteInboxNotification(i), [InboxRepository]);
  useCase(ChangeInboxNotifications, (i: InboxRepository) => new ChangeInboxNotifications(i), [InboxRepository]);
  useCase(CompleteInboxAction, (i: InboxRepository) => new CompleteInboxAction(i), [InboxRepository]);

  // The browser inbox: subscriber sessions and tokens, and live updates heard by every process
  const subscriberTokens = new HmacSubscriberTokens(loadEncryptionKey({ configured: config.encryptionKey, dataDir: config.dataDir }));
  container.bind<SubscriberTokens>(SubscriberTokens).toConstantValue(subscriberTokens);
  const inboxFeed = new PgInboxFeed(db.pool, (err) => logger.warn({ err }, 'inbox live feed'));
  container.bind<PgInboxFeed>(PgInboxFeed).toConstantValue(inboxFeed);
  container.bind<InboxFeed>(InboxFeed).toConstantValue(inboxFeed);
  container.get<DeliveryObservers>(DeliveryObserver).add(new InboxLiveObserver(inboxFeed));
  useCase(
    StartInboxSession,
    (t: TenancyRepository, s: SubscriberRepository, i: InboxRepository) => new StartInboxSession(t, s, i, subscriberTokens),
    [TenancyRepository, SubscriberRepository, InboxRepository],
  );
  useCase(AuthenticateSubscriberToken, (t: TenancyRepository) => new AuthenticateSubscriberToken(subscriberTokens, t), [TenancyRepository]);
  useCase(ReadLiveInboxChanges, (i: InboxRepository) => new ReadLiveInboxChanges(i), [InboxRepository]);
  container.bind(InboxOrigins).toResolvedValue((t: TenancyRepository) => new InboxOrigins(t), [TenancyRepository]);

  bindWorkflowsAsCode(container, config);
  return { get: <T>(token: symbol | (new (...args: any[]) => T)) => container.get<T>(token) as T };
}
