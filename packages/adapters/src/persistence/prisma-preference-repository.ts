import {
  SEVERITIES,
  type ChannelFlags,
  type DeliverySchedule,
  type PreferenceRepository,
  type Severity,
  type SubscriberPreferenceRecord,
  type SubscriberPreferences,
  type WorkflowPreferenceDefaults,
  type WorkflowSettings,
} from '@herald/domain';
import type { Pool } from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { isUuid } from './sql-params';

const WORKFLOW_SELECT = {
  id: true,
  workflowId: true,
  name: true,
  critical: true,
  tags: true,
  severity: true,
  data: true,
  preferences: true,
  updatedAt: true,
} as const;
type WorkflowRow = Prisma.WorkflowGetPayload<{ select: typeof WORKFLOW_SELECT }>;

// Merges channel switches into one level, creating it when missing; the partial unique indexes
// (one global row per subscriber, one per subscriber and workflow) are the conflict targets.
const MERGE = (target: 'global' | 'workflow') => `
INSERT INTO subscriber_preferences (environment_id, subscriber_id, workflow_id, channels)
SELECT $1::uuid, s.id, $3::uuid, $4::jsonb
FROM subscribers s WHERE s.environment_id = $1::uuid AND s.subscriber_id = $2
ON CONFLICT ${target === 'global' ? '(subscriber_id) WHERE workflow_id IS NULL' : '(subscriber_id, workflow_id) WHERE workflow_id IS NOT NULL'}
DO UPDATE SET channels = subscriber_preferences.channels || EXCLUDED.channels, updated_at = now()
RETURNING id`;

/** Reads workflow settings straight from the workflows table; owns subscriber_preferences. */
export class PrismaPreferenceRepository implements PreferenceRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: Pool,
  ) {}

  async listWorkflowSettings(environmentId: string): Promise<WorkflowSettings[]> {
    const rows = await this.prisma.workflow.findMany({
      where: { environmentId, deleted: false },
      select: WORKFLOW_SELECT,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toWorkflowSettings);
  }

  async findWorkflowSettings(environmentId: string, reference: string): Promise<WorkflowSettings | null> {
    const or: Prisma.WorkflowWhereInput[] = [{ workflowId: reference }];
    if (isUuid(reference)) or.push({ id: reference });
    const row = await this.prisma.workflow.findFirst({ where: { environmentId, deleted: false, OR: or }, select: WORKFLOW_SELECT });
    return row && toWorkflowSettings(row);
  }

  async findSubscriberPreferences(environmentId: string, subscriberId: string): Promise<SubscriberPreferences | null> {
    const subscriber = await this.prisma.subscriber.findUnique({
      where: { environmentId_subscriberId: { environmentId, subscriberId } },
      select: { schedule: true, preferences: { select: { workflowId: true, enabled: true, channels: true } } },
    });
    if (!subscriber) return null;
    const schedule = (subscriber.schedule ?? null) as DeliverySchedule | null;
    const result: SubscriberPreferences = { global: null, perWorkflow: new Map(), schedule };
    for (const row of subscriber.preferences) {
      const record: SubscriberPreferenceRecord = { enabled: row.enabled, channels: (row.channels ?? {}) as ChannelFlags };
      if (row.workflowId === null) result.global = record;
      else result.perWorkflow.set(row.workflowId, record);
    }
    return result;
  }

  async mergeSubscriberPreference(environmentId: string, subscriberId: string, workflowId: string | null, channels: ChannelFlags): Promise<boolean> {
    const { rowCount } = await this.pool.query(MERGE(workflowId === null ? 'global' : 'workflow'), [
      environmentId,
      subscriberId,
      workflowId,
      JSON.stringify(channels),
    ]);
    return (rowCount ?? 0) > 0;
  }

  async setSchedule(environmentId: string, subscriberId: string, schedule: DeliverySchedule | null, onlyIfUnset = false): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE subscribers SET schedule = $3::jsonb, updated_at = now()
       WHERE environment_id = $1::uuid AND subscriber_id = $2${onlyIfUnset ? ' AND schedule IS NULL' : ''}`,
      [environmentId, subscriberId, schedule === null ? null : JSON.stringify(schedule)],
    );
    return (rowCount ?? 0) > 0;
  }
}

function toWorkflowSettings(row: WorkflowRow): WorkflowSettings {
  return {
    id: row.id,
    identifier: row.workflowId,
    name: row.name,
    critical: row.critical,
    tags: row.tags,
    severity: (SEVERITIES as readonly string[]).includes(row.severity) ? (row.severity as Severity) : 'none',
    data: (row.data as Record<string, unknown> | null) ?? null,
    defaults: (row.preferences ?? {}) as WorkflowPreferenceDefaults,
    updatedAt: row.updatedAt,
  };
}
