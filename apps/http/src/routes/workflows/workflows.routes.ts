import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import {
  CreateWorkflowSchema,
  ListWorkflowsQuery,
  PatchWorkflowSchema,
  PreviewRequestSchema,
  PreviewResponseSchema,
  UpdateWorkflowSchema,
  WorkflowListSchema,
  StepResponseSchema,
  WorkflowResponseSchema,
} from './workflows.schemas';

const tags = ['Workflows'];
const WorkflowParam = z.object({ workflowId: z.string().min(1).openapi({ description: 'Trigger identifier or internal id' }) });
const WorkflowEnvelope = dataEnvelope(WorkflowResponseSchema);

export const create = createRoute({
  method: 'post',
  path: '/v2/workflows',
  tags,
  summary: 'Create a workflow with its steps',
  request: jsonBody(CreateWorkflowSchema),
  responses: { 201: jsonContent(WorkflowEnvelope, 'The workflow, with step issues'), ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: '/v2/workflows',
  tags,
  summary: 'List workflows (offset paging; search, tags and status filters)',
  request: { query: ListWorkflowsQuery },
  responses: { 200: jsonContent(dataEnvelope(WorkflowListSchema), 'A page of workflows and the total'), ...errorResponses },
});

export const retrieve = createRoute({
  method: 'get',
  path: '/v2/workflows/{workflowId}',
  tags,
  summary: 'Retrieve a workflow',
  request: { params: WorkflowParam },
  responses: { 200: jsonContent(WorkflowEnvelope, 'The workflow'), ...errorResponses },
});

export const update = createRoute({
  method: 'put',
  path: '/v2/workflows/{workflowId}',
  tags,
  summary: 'Replace a workflow and its steps (fields left out keep their value)',
  request: { params: WorkflowParam, ...jsonBody(UpdateWorkflowSchema) },
  responses: { 200: jsonContent(WorkflowEnvelope, 'The workflow'), ...errorResponses },
});

export const patch = createRoute({
  method: 'patch',
  path: '/v2/workflows/{workflowId}',
  tags,
  summary: 'Change single attributes of a workflow (active, name, tags...)',
  request: { params: WorkflowParam, ...jsonBody(PatchWorkflowSchema) },
  responses: { 200: jsonContent(WorkflowEnvelope, 'The workflow'), ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: '/v2/workflows/{workflowId}',
  tags,
  summary: 'Delete a workflow with its steps',
  request: { params: WorkflowParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses },
});

const StepParams = WorkflowParam.extend({ stepId: z.string().min(1).openapi({ description: 'stepId or the step internal id' }) });

export const retrieveStep = createRoute({
  method: 'get',
  path: '/v2/workflows/{workflowId}/steps/{stepId}',
  tags,
  summary: 'Retrieve one step of a workflow, with its issues',
  request: { params: StepParams },
  responses: { 200: jsonContent(dataEnvelope(StepResponseSchema), 'The step'), ...errorResponses },
});

export const preview = createRoute({
  method: 'post',
  path: '/v2/workflows/{workflowId}/step/{stepId}/preview',
  tags,
  summary: 'Render a step with example or given variables',
  request: {
    params: StepParams,
    ...jsonBody(PreviewRequestSchema, false),
  },
  responses: { 201: jsonContent(dataEnvelope(PreviewResponseSchema), 'The rendered step'), ...errorResponses },
});
