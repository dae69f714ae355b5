import type { Integration } from '../../entities/integration';
import type { IntegrationRepository } from '../../ports/integration-repository';

/** The environment's integrations (only the active ones with `activeOnly`). */
export class ListIntegrations {
  constructor(private readonly integrations: IntegrationRepository) {}

  execute(environmentId: string, options: { activeOnly?: boolean } = {}): Promise<Integration[]> {
    return this.integrations.list(environmentId, options);
  }
}
