import { randomBytes } from 'node:crypto';
import { tenancyRepositoryContract } from '@herald/domain/testing/tenancy-repository-contract';
import { afterAll, inject } from 'vitest';
import { connectDatabase, type Database } from '../database/database';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { createTestDatabase } from '../testing/test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';

// Bootstrap is once per installation: each test gets a database of its own.
const opened: Array<{ db: Database; drop(): Promise<void> }> = [];
afterAll(async () => {
  for (const { db, drop } of opened) await db.close().then(drop);
});
const cipher = new AesGcmCredentialCipher(randomBytes(32));

tenancyRepositoryContract('PostgreSQL', async () => {
  const created = await createTestDatabase(inject('adminDatabaseUrl'));
  const db = connectDatabase(created.url, 10);
  opened.push({ db, drop: created.drop });
  return new PrismaTenancyRepository(db.prisma, cipher);
});
