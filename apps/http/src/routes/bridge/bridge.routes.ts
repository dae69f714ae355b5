import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import { WorkflowResponseSchema } from '../workflows/workflows.schemas';

// What `novu sync` sends (novu CLI 2.x): {bridgeUrl}; the dashboard of the original also sends the workflows it discovered, which Herald discovers itself.
export const SyncBridgeSchema = z
  .object({
    bridgeUrl: z.string().min(1).openapi({ example: 'https://app.example.com/api/novu' }),
    workflows: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'Ignored: Herald asks the bridge to discover its workflows' }),
  })
  .strict()
  .openapi('SyncBridgeRequest');

export const PromoteWorkflowSchema = z
  .object({ targetEnvironmentId: z.string().min(1).openapi({ description: 'The environment to promote to: its id or slug (production)' }) })
  .strict()
  .openapi('SyncWorkflowRequest');

export const sync = createRoute({
  method: 'post',
  path: '/v1/bridge/sync',
  tags: ['Workflows as code'],
  summary: "Sync a bridge's code-defined workflows into the environment (what `novu sync` calls)",
  request: { query: z.strictObject({ source: z.string().optional() }), ...jsonBody(SyncBridgeSchema) },
  responses: { 201: jsonContent(dataEnvelope(z.array(WorkflowResponseSchema)), 'The synced workflows (none in Production, where only the bridge is registered)'), ...errorResponses },
});

export const promote = createRoute({
  method: 'put',
  path: '/v2/workflows/{workflowId}/sync',
  tags: ['Workflows as code'],
  summary: 'Promote a workflow to another environment (Development to Production)',
  request: { params: z.object({ workflowId: z.string().min(1) }), ...jsonBody(PromoteWorkflowSchema) },
  responses: { 200: jsonContent(dataEnvelope(WorkflowResponseSchema), 'The workflow as written in the target environment'), ...errorResponses },
});
