import { afterAll, beforeAll, inject } from 'vitest';
import { connectDatabase, type Database } from '../database/database';
import { createTestDatabase } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

export interface TestDatabaseHandle {
  readonly db: Database;
  readonly url: string;
}

/** For *.int.test.ts: a fresh migrated database for the file, connected before its tests and dropped after. */
export function useTestDatabase(maxConnections = 10): TestDatabaseHandle {
  let db: Database | undefined;
  let created: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    created = await createTestDatabase(inject('adminDatabaseUrl'));
    db = connectDatabase(created.url, maxConnections);
  });
  afterAll(async () => {
    await db?.close();
    await created?.drop();
  });
  return {
    get db() {
      if (!db) throw new Error('the test database is ready in beforeAll');
      return db;
    },
    get url() {
      if (!created) throw new Error('the test database is ready in beforeAll');
      return created.url;
    },
  };
}
