import type { Database, EncryptionKeyring, PgBoss } from '@herald/adapters';
import type { Token } from '@herald/domain';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Observability } from '../observability/observability';

/** What a binding is found by: a port's token, or a class (use cases, and the adapters the server drives). */
export type Key<T> = Token<T> | (abstract new (...args: any[]) => T);

/** Asks for every value contributed to a token (see `Binder.add`), as one array. */
export interface All<T> {
  readonly all: Token<T>;
}
export const all = <T>(token: Token<T>): All<T> => ({ all: token });

export type Dependency = Key<any> | All<any>;

/** The values a list of dependencies resolves to, in the same order. */
export type Resolved<D extends readonly unknown[]> = {
  -readonly [I in keyof D]: D[I] extends All<infer T> ? T[] : D[I] extends Key<infer T> ? T : never;
};

type KeysOf<P extends readonly unknown[]> = { [I in keyof P]: Key<P[I]> };

/**
 * How an area of the service states what it provides. Each dependency is named once, as a key in a
 * list; the compiler checks that the list matches the constructor or factory it feeds. Values are
 * made on first use, so areas may be wired in any order and may depend on each other.
 */
export interface Binder {
  /** A value made already (an adapter over the database, a constant). */
  value<T>(key: Key<T>, value: T): void;
  /** Made once, on first use, from the values of `deps`. */
  factory<T, const D extends readonly Dependency[]>(key: Key<T>, deps: D, make: (...values: Resolved<D>) => T): void;
  /** `new Class(...deps)`, once, on first use. */
  construct<A extends unknown[], T>(Class: new (...args: A) => T, deps: KeysOf<A>): void;
  /** One more value among those `all(token)` gives, for tokens that many areas extend (delivery observers). */
  add<T>(token: Token<T>, value: T): void;
}

/** What every area builds on: started before wiring, owned by the server. */
export interface Infrastructure {
  config: Config;
  db: Database;
  boss: PgBoss;
  logger: Logger;
  observability: Observability;
  /** The installation's keyring (credentials at rest, API key secrets; its current key signs subscriber tokens), read once. */
  encryptionKey: EncryptionKeyring;
}

/** One area of the service's wiring (`wiring/areas.ts` lists them). */
export type Wiring = (bind: Binder, infrastructure: Infrastructure) => void;
