import { randomBytes } from 'node:crypto';
import { integrationRepositoryContract } from '@herald/domain/testing/integration-repository-contract';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { contractEnvironments } from '../testing/contract-environments';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaIntegrationRepository } from './prisma-integration-repository';

const database = useTestDatabase();
const cipher = new AesGcmCredentialCipher(randomBytes(32));

integrationRepositoryContract('PostgreSQL', async () => ({
  repo: new PrismaIntegrationRepository(database.db.prisma, cipher),
  environments: await contractEnvironments(database.db.pool),
}));
