import {
  BridgeClient,
  BridgeStepRunner,
  BridgeTargets,
  CreateWorkflow,
  DeleteWorkflow,
  HttpClient,
  IntegrationRepository,
  PatchWorkflow,
  PreviewBridgeStep,
  PreviewStep,
  PromoteWorkflow,
  SyncBridge,
  TenancyRepository,
  UpdateWorkflow,
  WorkflowFiles,
  WorkflowRepository,
} from '@herald/domain';
import type { Container } from 'inversify';
import type { Config } from '../config';

type W = WorkflowRepository;
type I = IntegrationRepository;
type T = TenancyRepository;

/**
 * Workflows as code (docs/workflows-as-code.md): the bridge client on the guarded outbound HTTP
 * client, sync, promotion, workflow files, and the bridge step runner the delivery engine wraps
 * its handlers with (`withBridge`). The workflow write use cases are bound again with the
 * environment, so Production refuses changes that do not come by promotion.
 */
export function bindWorkflowsAsCode(container: Container, config: Config): void {
  container.bind(BridgeClient).toResolvedValue((http: HttpClient) => new BridgeClient(http), [HttpClient]);
  container.bind(BridgeTargets).toResolvedValue((t: T) => new BridgeTargets(t, config.retryPolicy), [TenancyRepository]);
  container
    .bind(BridgeStepRunner)
    .toResolvedValue((b: BridgeClient, targets: BridgeTargets, w: W) => new BridgeStepRunner(b, targets, w), [BridgeClient, BridgeTargets, WorkflowRepository]);
  container.bind(PreviewBridgeStep).toResolvedValue((b: BridgeClient, targets: BridgeTargets) => new PreviewBridgeStep(b, targets), [BridgeClient, BridgeTargets]);
  container.bind(SyncBridge).toResolvedValue((w: W, t: T, b: BridgeClient, i: I) => new SyncBridge(w, t, b, i), [WorkflowRepository, TenancyRepository, BridgeClient, IntegrationRepository]);
  container.bind(PromoteWorkflow).toResolvedValue((w: W, t: T, i: I) => new PromoteWorkflow(w, t, i), [WorkflowRepository, TenancyRepository, IntegrationRepository]);
  container.bind(WorkflowFiles).toResolvedValue((w: W, t: T) => new WorkflowFiles(w, t), [WorkflowRepository, TenancyRepository]);

  const guarded: [symbol, symbol, symbol] = [WorkflowRepository, IntegrationRepository, TenancyRepository];
  container.rebind(CreateWorkflow).toResolvedValue((w: W, i: I, t: T) => new CreateWorkflow(w, i, t), guarded);
  container.rebind(UpdateWorkflow).toResolvedValue((w: W, i: I, t: T) => new UpdateWorkflow(w, i, t), guarded);
  container.rebind(PatchWorkflow).toResolvedValue((w: W, i: I, t: T) => new PatchWorkflow(w, i, t), guarded);
  container.rebind(DeleteWorkflow).toResolvedValue((w: W, t: T) => new DeleteWorkflow(w, t), [WorkflowRepository, TenancyRepository]);
  container
    .rebind(PreviewStep)
    .toResolvedValue((w: W, t: T, p: PreviewBridgeStep) => new PreviewStep(w, t, undefined, p), [WorkflowRepository, TenancyRepository, PreviewBridgeStep]);
}
