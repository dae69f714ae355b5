import {
  CreateWorkflow,
  DomainError,
  DeleteWorkflow,
  GetWorkflow,
  ListWorkflows,
  PatchWorkflow,
  PreviewStep,
  UpdateWorkflow,
  type RenderVariables,
  type WorkflowInput,
} from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentPreview, presentStep, presentWorkflow, presentWorkflowListItem, toPreferenceDefaults } from './workflows.presenter';
import * as routes from './workflows.routes';
import type { CreateWorkflowSchema } from './workflows.schemas';

/** The HTTP body as the domain's input; `validatePayload` follows from having a payload schema. */
function toInput({ preferences, validatePayload: _, agent: __, __source: ___, steps, ...body }: Partial<z.infer<typeof CreateWorkflowSchema>>): WorkflowInput {
  const kept = steps?.map(({ _id, providerOverrides, ...step }) => step);
  return { ...body, steps: kept, preferences: toPreferenceDefaults(preferences) } as WorkflowInput;
}

export function workflowsRouter(resolve: Resolver, serviceName: string) {
  const createWorkflow = resolve.get(CreateWorkflow);
  const getWorkflow = resolve.get(GetWorkflow);
  const listWorkflows = resolve.get(ListWorkflows);
  const updateWorkflow = resolve.get(UpdateWorkflow);
  const patchWorkflow = resolve.get(PatchWorkflow);
  const deleteWorkflow = resolve.get(DeleteWorkflow);
  const previewStep = resolve.get(PreviewStep);

  return createRouter()
    .openapi(routes.create, async (c) => {
      const workflow = await createWorkflow.execute(c.get('caller').environmentId, toInput(c.req.valid('json')));
      return c.json({ data: presentWorkflow(workflow) }, 201);
    })
    .openapi(routes.list, async (c) => {
      const { tags, status, query, ...page } = c.req.valid('query');
      const result = await listWorkflows.execute(c.get('caller').environmentId, { ...page, query, tags, status });
      return c.json({ data: { workflows: result.workflows.map(presentWorkflowListItem), totalCount: result.totalCount } }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const workflow = await getWorkflow.execute(c.get('caller').environmentId, c.req.valid('param').workflowId);
      return c.json({ data: presentWorkflow(workflow) }, 200);
    })
    .openapi(routes.update, async (c) => {
      const { environmentId } = c.get('caller');
      const workflow = await updateWorkflow.execute(environmentId, c.req.valid('param').workflowId, toInput(c.req.valid('json')));
      return c.json({ data: presentWorkflow(workflow) }, 200);
    })
    .openapi(routes.patch, async (c) => {
      const { validatePayload: _, ...changes } = c.req.valid('json');
      const workflow = await patchWorkflow.execute(c.get('caller').environmentId, c.req.valid('param').workflowId, changes);
      return c.json({ data: presentWorkflow(workflow) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteWorkflow.execute(c.get('caller').environmentId, c.req.valid('param').workflowId);
      return c.body(null, 204);
    })
    .openapi(routes.retrieveStep, async (c) => {
      const { workflowId, stepId } = c.req.valid('param');
      const workflow = await getWorkflow.execute(c.get('caller').environmentId, workflowId);
      const index = workflow.steps.findIndex((s) => s.stepId === stepId || s.id === stepId);
      if (index === -1) throw DomainError.notFound('NOT_FOUND', `Step of workflow '${workflow.workflowId}'`, stepId);
      return c.json({ data: presentStep(workflow, workflow.steps[index], index) }, 200);
    })
    .openapi(routes.preview, async (c) => {
      const { workflowId, stepId } = c.req.valid('param');
      const body = c.req.valid('json') ?? {};
      const preview = await previewStep.execute({
        environmentId: c.get('caller').environmentId,
        workflowId,
        stepId,
        controlValues: body.controlValues,
        previewPayload: body.previewPayload as RenderVariables | undefined,
      });
      return c.json({ data: presentPreview(preview, serviceName) }, 201);
    });
}
