import type { ApiKeyRecord, Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import { environmentBySlugOrId } from './environment-lookup';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { generateApiKey, hashApiKey, keyHint } from './api-keys';

/** The operator's key management (the `herald keys` command). */
export class ManageApiKeys {
  constructor(private readonly tenancy: TenancyRepository) {}

  listEnvironments(): Promise<Environment[]> {
    return this.tenancy.listEnvironments();
  }

  async list(environmentSlugOrId: string): Promise<ApiKeyRecord[]> {
    return this.tenancy.listApiKeys((await this.environment(environmentSlugOrId)).id);
  }

  /** Returns the new key in plain text: the only time it is ever visible. */
  async create(environmentSlugOrId: string): Promise<{ record: ApiKeyRecord; key: string }> {
    const environment = await this.environment(environmentSlugOrId);
    const key = generateApiKey();
    const record = await this.tenancy.addApiKey(environment.id, hashApiKey(key), keyHint(key), key);
    return { record, key };
  }

  /** Revokes the key; with `environmentId`, only a key of that environment (NOT_FOUND otherwise). */
  async revoke(apiKeyId: string, environmentId?: string): Promise<void> {
    if (!(await this.tenancy.revokeApiKey(apiKeyId, environmentId))) throw DomainError.notFound('NOT_FOUND', 'API key', apiKeyId);
  }

  private environment(slugOrId: string): Promise<Environment> {
    return environmentBySlugOrId(this.tenancy, slugOrId);
  }
}
