import { BridgeClient, BridgeStepRunner, BridgeTargets, HttpClient, IntegrationRepository, JobRepository, PreviewBridgeStep, PromoteWorkflow, SyncBridge, TenancyRepository, WorkflowFiles, WorkflowRepository } from '@herald/domain';
import type { Wiring } from './binder';

/**
 * Workflows as code (docs/workflows-as-code.md): the bridge client on the guarded outbound HTTP
 * client, sync, promotion, workflow files, and the bridge step runner the delivery engine wraps
 * its handlers with (wiring/delivery.ts).
 */
export const workflowsAsCode: Wiring = (bind, { config }) => {
  bind.construct(BridgeClient, [HttpClient]);
  bind.factory(BridgeTargets, [TenancyRepository], (tenancy) => new BridgeTargets(tenancy, config.retryPolicy));
  bind.construct(BridgeStepRunner, [BridgeClient, BridgeTargets, WorkflowRepository, JobRepository]);
  bind.construct(PreviewBridgeStep, [BridgeClient, BridgeTargets]);
  bind.construct(SyncBridge, [WorkflowRepository, TenancyRepository, BridgeClient, IntegrationRepository]);
  bind.construct(PromoteWorkflow, [WorkflowRepository, TenancyRepository, IntegrationRepository]);
  bind.construct(WorkflowFiles, [WorkflowRepository, TenancyRepository]);
};
