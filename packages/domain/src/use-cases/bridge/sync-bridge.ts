import type { EvaluatedWorkflow } from '../../entities/workflow';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import type { WorkflowRepository } from '../../ports/workflow-repository';
import { discoveredWorkflows } from '../../rules/discovered-workflows';
import { evaluateWorkflow } from '../../rules/step-issues';
import type { ActiveChannels } from '../workflows/create-workflow';
import { hashApiKey } from '../tenancy/api-keys';
import type { BridgeClient } from './bridge-client';
import { isPromotionOnly } from './promotion-only';

export interface SyncBridgeInput {
  environmentId: string;
  bridgeUrl: string;
  /** The secret key the caller authenticated with: the bridge verifies Herald's signatures with it. */
  secretKey: string;
}

export interface SyncBridgeOutput {
  /** The environment's synced workflows as written (none in Production, where promotion writes them). */
  workflows: EvaluatedWorkflow[];
  /** Trigger identifiers of synced workflows the bridge no longer has, removed. */
  removed: string[];
}

function bridgeUrlProblem(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http or https URL';
  } catch {
    return 'must be an absolute URL, e.g. https://app.example.com/api/novu';
  }
}

/**
 * What `novu sync` asks for (POST /v1/bridge/sync): discover the bridge's workflows and make them
 * the environment's `external` workflows, replacing the previous sync (added, changed, removed), then
 * remember the bridge and the key it trusts. In Production the bridge is only registered: its
 * workflows arrive there by promotion from Development.
 */
export class SyncBridge {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly tenancy: Pick<TenancyRepository, 'findEnvironment' | 'setBridge'>,
    private readonly bridge: BridgeClient,
    private readonly integrations: ActiveChannels,
  ) {}

  async execute(input: SyncBridgeInput): Promise<SyncBridgeOutput> {
    const problem = bridgeUrlProblem(input.bridgeUrl);
    if (problem) throw DomainError.field('bridgeUrl', problem, input.bridgeUrl);
    const environment = await this.tenancy.findEnvironment(input.environmentId);
    if (!environment) throw DomainError.notFound('ENVIRONMENT_NOT_FOUND', 'Environment', input.environmentId);
    const answer = await this.bridge.discover({ url: input.bridgeUrl, secretKey: input.secretKey });
    if (!answer.ok) {
      const status = answer.failure.status ? ` (${answer.failure.status}${answer.failure.code ? ` ${answer.failure.code}` : ''})` : '';
      throw new DomainError('BAD_REQUEST', `Bridge URL is not valid${status}: ${answer.failure.message}`);
    }
    const { workflows: current } = await this.workflows.list(input.environmentId, {}, { orderBy: 'createdAt', orderDirection: 'ASC' });
    const parsed = discoveredWorkflows(answer.value, current.filter((w) => w.origin === 'external'));
    if ('errors' in parsed) {
      const [field, error] = Object.entries(parsed.errors)[0];
      throw new DomainError('BAD_REQUEST', `The bridge's workflows cannot be synced: ${field} ${error.messages[0]}`, parsed.errors);
    }
    const bridge = { url: input.bridgeUrl, keyHash: hashApiKey(input.secretKey) };
    if (isPromotionOnly(environment)) {
      await this.tenancy.setBridge(input.environmentId, bridge);
      return { workflows: [], removed: [] };
    }
    const { workflows, removed } = await this.workflows.writeAll(input.environmentId, 'external', parsed.drafts, { prune: true });
    await this.tenancy.setBridge(input.environmentId, bridge);
    const channels = await this.integrations.activeChannels(input.environmentId);
    return { workflows: workflows.map((w) => evaluateWorkflow(w, channels)), removed };
  }
}
