import {
  crossesOrigin,
  DomainError,
  originConflict,
  type OffsetPage,
  type Severity,
  type StepSchemas,
  type Workflow,
  type WorkflowChanges,
  type WorkflowDraft,
  type WorkflowFilter,
  type WorkflowOrder,
  type WorkflowOrigin,
  type WorkflowPreferenceDefaults,
  type WorkflowRepository,
  type WorkflowStepType,
} from '@herald/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { isUniqueViolation, jsonOrNull } from './prisma-errors';
import { isUuid } from './sql-params';

const withSteps = { steps: { orderBy: { position: 'asc' } } } as const;
type Row = Prisma.WorkflowGetPayload<{ include: typeof withSteps }>;

// Writes the whole step list in one statement: a stepId that exists keeps its row (and id, which
// jobs refer to); the others are inserted. Steps no longer listed are deleted just before.
const UPSERT_STEPS = `
INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values, skip, schemas, updated_at)
SELECT $1::uuid, s.step_id, s.name, s.type, s.position, s.control_values, s.skip, s.schemas, now()
FROM jsonb_to_recordset($2::jsonb) AS s(step_id text, name text, type text, position int, control_values jsonb, skip jsonb, schemas jsonb)
ON CONFLICT (workflow_id, step_id) DO UPDATE SET
  name = EXCLUDED.name, type = EXCLUDED.type, position = EXCLUDED.position,
  control_values = EXCLUDED.control_values, skip = EXCLUDED.skip, schemas = EXCLUDED.schemas, updated_at = now()`;

function conflict(workflowId: string): DomainError {
  return new DomainError('WORKFLOW_ALREADY_EXISTS', `A workflow with the identifier '${workflowId}' already exists in this environment`);
}

function attributes(draft: WorkflowChanges & { workflowId?: string; origin?: WorkflowOrigin; preferences?: WorkflowPreferenceDefaults }) {
  const data: Prisma.WorkflowUpdateManyMutationInput = {};
  for (const key of ['workflowId', 'name', 'description', 'tags', 'active', 'critical', 'severity', 'origin', 'isTranslationEnabled'] as const) {
    if (draft[key] !== undefined) (data as Record<string, unknown>)[key] = draft[key];
  }
  if (draft.payloadSchema !== undefined) data.payloadSchema = jsonOrNull(draft.payloadSchema);
  if (draft.data !== undefined) data.data = jsonOrNull(draft.data);
  if (draft.preferences !== undefined) data.preferences = draft.preferences as Prisma.InputJsonValue;
  return data;
}

function stepRows(draft: WorkflowDraft) {
  return draft.steps.map((s, position) => ({
    step_id: s.stepId,
    name: s.name,
    type: s.type,
    position,
    control_values: s.controlValues,
    skip: s.skip,
    schemas: s.schemas ?? null,
  }));
}

function createData(environmentId: string, draft: WorkflowDraft): Prisma.WorkflowUncheckedCreateInput {
  return {
    ...(attributes(draft) as Prisma.WorkflowCreateWithoutStepsInput),
    workflowId: draft.workflowId,
    name: draft.name,
    environmentId,
    steps: {
      createMany: {
        data: draft.steps.map((s, position) => ({
          stepId: s.stepId,
          name: s.name,
          type: s.type,
          position,
          controlValues: s.controlValues as Prisma.InputJsonValue,
          skip: jsonOrNull(s.skip),
          schemas: jsonOrNull(s.schemas ?? null),
        })),
      },
    },
  } as Prisma.WorkflowUncheckedCreateInput;
}

async function replaceIn(tx: Prisma.TransactionClient, environmentId: string, id: string, draft: WorkflowDraft): Promise<Workflow | null> {
  const { count } = await tx.workflow.updateMany({ where: { id, environmentId, deleted: false }, data: attributes(draft) });
  if (count === 0) return null;
  await tx.workflowStep.deleteMany({ where: { workflowId: id, stepId: { notIn: draft.steps.map((s) => s.stepId) } } });
  if (draft.steps.length) await tx.$executeRawUnsafe(UPSERT_STEPS, id, JSON.stringify(stepRows(draft)));
  return toWorkflow(await tx.workflow.findUniqueOrThrow({ where: { id }, include: withSteps }));
}

export class PrismaWorkflowRepository implements WorkflowRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(environmentId: string, draft: WorkflowDraft): Promise<Workflow> {
    try {
      const row = await this.prisma.workflow.create({ data: createData(environmentId, draft), include: withSteps });
      return toWorkflow(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(draft.workflowId);
      throw error;
    }
  }

  async find(environmentId: string, reference: string): Promise<Workflow | null> {
    const byIdentifier = await this.prisma.workflow.findFirst({ where: { environmentId, workflowId: reference, deleted: false }, include: withSteps });
    if (byIdentifier || !isUuid(reference)) return byIdentifier && toWorkflow(byIdentifier);
    const byId = await this.prisma.workflow.findFirst({ where: { environmentId, id: reference, deleted: false }, include: withSteps });
    return byId && toWorkflow(byId);
  }

  async replace(environmentId: string, id: string, draft: WorkflowDraft): Promise<Workflow | null> {
    try {
      return await this.prisma.$transaction((tx) => replaceIn(tx, environmentId, id, draft));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(draft.workflowId);
      throw error;
    }
  }

  async writeAll(environmentId: string, origin: WorkflowOrigin, drafts: WorkflowDraft[], options: { prune?: boolean } = {}) {
    return this.prisma.$transaction(async (tx) => {
        const current = await tx.workflow.findMany({ where: { environmentId, deleted: false }, select: { id: true, workflowId: true, origin: true } });
        const byIdentifier = new Map(current.map((w) => [w.workflowId, w]));
        for (const draft of drafts) {
          const existing = byIdentifier.get(draft.workflowId);
          if (existing && crossesOrigin(existing.origin as WorkflowOrigin, origin)) throw originConflict(draft.workflowId, existing.origin as WorkflowOrigin);
        }
        const workflows: Workflow[] = [];
        const created: string[] = [];
        for (const draft of drafts) {
          const existing = byIdentifier.get(draft.workflowId);
          if (existing) workflows.push((await replaceIn(tx, environmentId, existing.id, { ...draft, origin }))!);
          else {
            workflows.push(toWorkflow(await tx.workflow.create({ data: createData(environmentId, { ...draft, origin }), include: withSteps })));
            created.push(draft.workflowId);
          }
        }
        const listed = new Set(drafts.map((d) => d.workflowId));
        const removed = options.prune ? current.filter((w) => w.origin === origin && !listed.has(w.workflowId)) : [];
        if (removed.length) await tx.workflow.deleteMany({ where: { id: { in: removed.map((w) => w.id) } } });
        return { workflows, created, removed: removed.map((w) => w.workflowId) };
    });
  }

  async update(environmentId: string, id: string, changes: WorkflowChanges): Promise<Workflow | null> {
    const { count } = await this.prisma.workflow.updateMany({ where: { id, environmentId, deleted: false }, data: attributes(changes) });
    return count ? this.find(environmentId, id) : null;
  }

  async delete(environmentId: string, id: string): Promise<boolean> {
    // Steps and subscribers' preferences for the workflow go with it (ON DELETE CASCADE).
    const { count } = await this.prisma.workflow.deleteMany({ where: { id, environmentId } });
    return count > 0;
  }

  async list(environmentId: string, filter: WorkflowFilter, order: WorkflowOrder, page?: OffsetPage) {
    const where: Prisma.WorkflowWhereInput = { environmentId, deleted: false };
    const query = filter.query?.trim();
    if (query) {
      where.OR = [{ name: { contains: query, mode: 'insensitive' } }, { workflowId: { contains: query, mode: 'insensitive' } }];
    }
    if (filter.tags?.length) where.tags = { hasSome: filter.tags };
    const direction = order.orderDirection === 'ASC' ? 'asc' : 'desc';
    // Never-triggered workflows come last in either direction.
    const primary = order.orderBy === 'lastTriggeredAt' ? { lastTriggeredAt: { sort: direction, nulls: 'last' } } : { [order.orderBy]: direction };
    const [rows, totalCount] = await Promise.all([
      this.prisma.workflow.findMany({
        where,
        orderBy: [primary as Prisma.WorkflowOrderByWithRelationInput, { id: direction }],
        skip: page?.offset,
        take: page?.limit,
        include: withSteps,
      }),
      this.prisma.workflow.count({ where }),
    ]);
    return { workflows: rows.map(toWorkflow), totalCount };
  }
}

export function toWorkflow(row: Row): Workflow {
  return {
    id: row.id,
    environmentId: row.environmentId,
    workflowId: row.workflowId,
    name: row.name,
    description: row.description,
    tags: row.tags ?? [],
    active: row.active,
    critical: row.critical,
    severity: row.severity as Severity,
    origin: row.origin as WorkflowOrigin,
    payloadSchema: (row.payloadSchema as Record<string, unknown> | null) ?? null,
    preferences: (row.preferences as WorkflowPreferenceDefaults | null) ?? {},
    data: (row.data as Record<string, unknown> | null) ?? null,
    isTranslationEnabled: row.isTranslationEnabled,
    lastTriggeredAt: row.lastTriggeredAt,
    lastPublishedAt: row.lastPublishedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    steps: row.steps.map((s) => ({
      id: s.id,
      stepId: s.stepId,
      name: s.name,
      type: s.type as WorkflowStepType,
      controlValues: (s.controlValues as Record<string, unknown>) ?? {},
      skip: (s.skip as Workflow['steps'][number]['skip']) ?? null,
      schemas: (s.schemas as unknown as StepSchemas | null) ?? null,
    })),
  };
}
