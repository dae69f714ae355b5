import pg from 'pg';

export interface WorkflowRow {
  workflowId: string;
  name?: string;
  critical?: boolean;
  tags?: string[];
  /** The workflows API's default-preferences shape: {all: {enabled, readOnly}, channels: {email: {enabled}}}. */
  preferences?: Record<string, unknown>;
}

/**
 * Inserts workflows straight into the `workflows` table, so tests of topics and preferences do not
 * depend on the workflows API. Returns the internal ids in input order.
 */
export async function insertWorkflows(databaseUrl: string, environmentId: string, rows: WorkflowRow[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: inserted } = await client.query<{ id: string }>(
      `INSERT INTO workflows (environment_id, workflow_id, name, critical, tags, preferences, created_at)
       SELECT $1::uuid, w->>'workflowId', COALESCE(w->>'name', w->>'workflowId'), COALESCE((w->>'critical')::boolean, false),
              ARRAY(SELECT jsonb_array_elements_text(COALESCE(w->'tags', '[]'::jsonb))), COALESCE(w->'preferences', '{}'::jsonb),
              now() + make_interval(secs => n / 1000.0)
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(w, n)
       ORDER BY n
       RETURNING id`,
      [environmentId, JSON.stringify(rows)],
    );
    return inserted.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** Runs one query against the service's database (for reading what a request stored). */
export async function queryDatabase<T extends pg.QueryResultRow>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export interface StepRow {
  type: string;
  controlValues?: Record<string, unknown>;
  stepId?: string;
  skip?: Record<string, unknown>;
  filters?: unknown[];
  active?: boolean;
}

/** A workflow with steps in the Development environment (or `environmentId`); returns its internal id. */
export async function insertWorkflowWithSteps(
  databaseUrl: string,
  workflow: WorkflowRow & { active?: boolean; critical?: boolean; payloadSchema?: Record<string, unknown> },
  steps: StepRow[],
  environmentId?: string,
): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO workflows (environment_id, workflow_id, name, active, critical, tags, preferences, payload_schema)
       SELECT COALESCE($1::uuid, (SELECT id FROM environments WHERE slug = 'development')), $2, $3, $4, $5, $6, $7, $8 RETURNING id`,
      [environmentId ?? null, workflow.workflowId, workflow.name ?? workflow.workflowId, workflow.active ?? true, workflow.critical ?? false,
        workflow.tags ?? [], JSON.stringify(workflow.preferences ?? {}), workflow.payloadSchema ? JSON.stringify(workflow.payloadSchema) : null],
    );
    for (const [i, step] of steps.entries()) {
      await client.query(
        `INSERT INTO workflow_steps (workflow_id, step_id, name, type, position, control_values, skip, filters, active)
         VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8)`,
        [rows[0].id, step.stepId ?? `${step.type}-${i}`, step.type, i, JSON.stringify(step.controlValues ?? {}),
          step.skip ? JSON.stringify(step.skip) : null, JSON.stringify(step.filters ?? []), step.active ?? true],
      );
    }
    await client.query('COMMIT');
    return rows[0].id;
  } finally {
    await client.end();
  }
}
