import 'reflect-metadata';
import { loadEncryptionKeyring, type Database, type PgBoss } from '@herald/adapters';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config';
import { Observability } from './observability/observability';
import type { Resolver } from './platform/app-env';
import * as areas from './wiring/areas';
import type { All, Binder, Dependency, Infrastructure, Key, Wiring } from './wiring/binder';

/**
 * The composition root: the only place that knows which adapter implements which port, and the only
 * importer of inversify. Each area (`wiring/areas.ts`) binds its own ports and use cases; nothing is
 * looked up while wiring, so areas bind in any order. Bindings name their dependencies explicitly
 * (no decorator metadata), so the same wiring works under tsc and vitest.
 */
export function buildContainer(config: Config, db: Database, boss: PgBoss, logger: Logger, observability = new Observability()): Resolver {
  const encryptionKey = loadEncryptionKeyring({ configured: config.encryptionKey, previous: config.encryptionKeysPrevious, dataDir: config.dataDir });
  return wire(Object.values(areas), { config, db, boss, logger, observability, encryptionKey });
}

/** Binds every area into one container, then checks that each dependency an area names is bound. */
export function wire(areas: readonly Wiring[], infrastructure: Infrastructure): Resolver {
  const container = new Container({ defaultScope: 'Singleton' });
  const binder = bindInto(container);
  for (const area of areas) area(binder, infrastructure);
  binder.checkComplete();
  return { get: <T>(key: Key<T>) => container.get<T>(key) };
}

/** A Binder over an inversify container that refuses a key bound twice, and (`checkComplete`) a dependency nobody binds. */
function bindInto(container: Container): Binder & { checkComplete(): void } {
  const bound = new Set<Key<unknown>>();
  const needed = new Set<Key<unknown>>();
  const claim = (key: Key<unknown>) => {
    if (bound.has(key)) throw new Error(`${describe(key)} is bound twice`);
    bound.add(key);
  };
  const inject = (deps: readonly Dependency[]) =>
    deps.map((dependency) => {
      if (typeof dependency === 'object') return { serviceIdentifier: (dependency as All<unknown>).all, isMultiple: true as const, optional: true as const };
      needed.add(dependency as Key<unknown>);
      return dependency as Key<unknown>;
    });
  return {
    value(key, value) {
      claim(key);
      container.bind(key).toConstantValue(value);
    },
    factory(key, deps, make) {
      claim(key);
      container.bind(key).toResolvedValue((...values: unknown[]) => make(...(values as never)), inject(deps));
    },
    construct(Class, deps) {
      claim(Class);
      container.bind(Class).toResolvedValue((...values: unknown[]) => new Class(...(values as never)), inject(deps));
    },
    add(token, value) {
      container.bind(token).toConstantValue(value);
    },
    checkComplete() {
      const missing = [...needed].filter((key) => !bound.has(key)).map(describe);
      if (missing.length) throw new Error(`nothing binds ${missing.join(', ')}`);
    },
  };
}

const describe = (key: Key<unknown>): string => (typeof key === 'symbol' ? (key.description ?? 'a symbol') : key.name);
