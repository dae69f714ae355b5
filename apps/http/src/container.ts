import 'reflect-metadata';
import {
  AuthenticateApiKey,
  BootstrapOrganization,
  BulkCreateSubscribers,
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
import { Container } from 'inversify';
import type { Config } from './config';
import type { Resolver } from './platform/app-env';

export const DatabaseToken = Symbol.for('Database');
export const ConfigToken = Symbol.for('Config');

/**
 * The composition root: the only place that knows which adapter implements which port.
 * Bindings name their dependencies explicitly (no decorator metadata), so the same wiring works
 * under tsx, tsc and vitest.
 */
export function buildContainer(config: Config, db: Database): Resolver {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<Config>(ConfigToken).toConstantValue(config);
  container.bind<Database>(DatabaseToken).toConstantValue(db);

  // Ports -> adapters
  container.bind<TenancyRepository>(TenancyRepository).toConstantValue(new PrismaTenancyRepository(db.prisma));
  container.bind<SubscriberRepository>(SubscriberRepository).toConstantValue(new PrismaSubscriberRepository(db.prisma, db.pool));

  // Use cases
  const useCase = <T, D extends unknown[]>(token: new (...args: any[]) => T, factory: (...deps: D) => T, deps: symbol[]) =>
    container.bind<T>(token).toResolvedValue(factory as (...args: unknown[]) => T, deps);
  useCase(AuthenticateApiKey, (t: TenancyRepository) => new AuthenticateApiKey(t), [TenancyRepository]);
  useCase(BootstrapOrganization, (t: TenancyRepository) => new BootstrapOrganization(t), [TenancyRepository]);
  useCase(ManageApiKeys, (t: TenancyRepository) => new ManageApiKeys(t), [TenancyRepository]);
  useCase(CreateSubscriber, (s: SubscriberRepository) => new CreateSubscriber(s), [SubscriberRepository]);
  useCase(GetSubscriber, (s: SubscriberRepository) => new GetSubscriber(s), [SubscriberRepository]);
  useCase(UpdateSubscriber, (s: SubscriberRepository) => new UpdateSubscriber(s), [SubscriberRepository]);
  useCase(DeleteSubscriber, (s: SubscriberRepository) => new DeleteSubscriber(s), [SubscriberRepository]);
  useCase(SetSubscriberOnlineStatus, (s: SubscriberRepository) => new SetSubscriberOnlineStatus(s), [SubscriberRepository]);
  useCase(SearchSubscribers, (s: SubscriberRepository) => new SearchSubscribers(s), [SubscriberRepository]);
  useCase(BulkCreateSubscribers, (s: SubscriberRepository) => new BulkCreateSubscribers(s), [SubscriberRepository]);

  return { get: <T>(token: symbol | (new (...args: any[]) => T)) => container.get<T>(token) as T };
}
