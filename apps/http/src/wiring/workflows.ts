import { PrismaWorkflowRepository } from '@herald/adapters';
import {
  CreateWorkflow,
  DeleteWorkflow,
  GetWorkflow,
  IntegrationRepository,
  ListWorkflows,
  PatchWorkflow,
  PreviewBridgeStep,
  PreviewStep,
  TenancyRepository,
  UpdateWorkflow,
  WorkflowRepository,
} from '@herald/domain';
import type { Wiring } from './binder';

/**
 * Workflows and step previews; a workflow's issues need the environment's active integrations.
 * Writes know the environment, so Production refuses changes that do not come by promotion, and
 * previews of synced workflows' steps ask their bridge (wiring/workflows-as-code.ts).
 */
export const workflows: Wiring = (bind, { db }) => {
  bind.value(WorkflowRepository, new PrismaWorkflowRepository(db.prisma));
  bind.construct(CreateWorkflow, [WorkflowRepository, IntegrationRepository, TenancyRepository]);
  bind.construct(GetWorkflow, [WorkflowRepository, IntegrationRepository]);
  bind.construct(ListWorkflows, [WorkflowRepository, IntegrationRepository]);
  bind.construct(UpdateWorkflow, [WorkflowRepository, IntegrationRepository, TenancyRepository]);
  bind.construct(PatchWorkflow, [WorkflowRepository, IntegrationRepository, TenancyRepository]);
  bind.construct(DeleteWorkflow, [WorkflowRepository, TenancyRepository]);
  bind.factory(PreviewStep, [WorkflowRepository, TenancyRepository, PreviewBridgeStep], (w, t, bridge) => new PreviewStep(w, t, undefined, bridge));
};
