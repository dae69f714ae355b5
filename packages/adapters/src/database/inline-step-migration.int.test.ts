import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { SqlActivityRepository } from '../persistence/sql-activity-repository';
import { insertWorkflowEnvironment, useDatabaseBeforeMigration } from '../testing/use-database-before-migration';
import { applyMigrations } from './migrate';

// The migration that moved a step run inline from one JSON document per notification (inline_job)
// into columns: a notification stored before it shows in the activity log exactly as it did.
const MIGRATION = '20261125093942_inline_step_columns';
const database = useDatabaseBeforeMigration(MIGRATION);

it('keeps every step run inline before it, with its details, as the activity log shows it', async () => {
  const { pool } = database;
  const ids = { ...(await insertWorkflowEnvironment(pool)), step: randomUUID(), event: randomUUID() };
  await pool.query(`INSERT INTO workflow_steps (id, workflow_id, step_id, name, type, position) VALUES ($1, $2, 'inbox', 'Inbox', 'in_app', 0)`, [ids.step, ids.workflow]);
  const subscribers: Record<string, string> = {};
  for (const name of ['sent', 'skipped', 'none']) {
    const { rows } = await pool.query<{ id: string }>(`INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, $2) RETURNING id`, [ids.env, name === 'sent' ? 'ada' : name]);
    subscribers[name] = rows[0].id;
  }
  await pool.query(`INSERT INTO events (id, environment_id, workflow_id, transaction_id, "to") VALUES ($1, $2, $3, 'tx', '{}')`, [ids.event, ids.env, ids.workflow]);
  const stored = (status: string, details: Array<{ status: string; source: string; detail: string; providerId?: string }>) => ({
    id: randomUUID(), workflowStepId: ids.step, stepId: 'inbox', type: 'in_app', position: 0, status, providerId: 'herald', details,
  });
  const sent = stored('completed', [{ status: 'Success', source: 'Internal', detail: 'in-app message stored in the inbox of ada', providerId: 'herald' }]);
  const skipped = stored('skipped', [{ status: 'Success', source: 'Internal', detail: 'skipped: preference in_app disabled' }]);
  const notifications: Record<string, string> = {};
  for (const [name, job] of Object.entries({ sent, skipped, none: null })) {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO notifications (environment_id, event_id, workflow_id, subscriber_id, transaction_id, inline_job) VALUES ($1, $2, $3, $4, 'tx', $5) RETURNING id`,
      [ids.env, ids.event, ids.workflow, subscribers[name], job && JSON.stringify(job)],
    );
    notifications[name] = rows[0].id;
  }

  expect(await applyMigrations(pool)).toContain(MIGRATION);
  const activity = new SqlActivityRepository(pool);
  const jobsOf = async (name: string) => (await activity.findById(ids.env, notifications[name]))!.jobs;
  for (const [name, job] of [['sent', sent], ['skipped', skipped]] as const) {
    const [shown] = await jobsOf(name);
    expect(shown).toMatchObject({ id: job.id, type: 'in_app', status: job.status, providerId: 'herald', step: { id: ids.step, stepId: 'inbox', name: 'Inbox' } });
    expect(shown.executionDetails.map((d) => ({ status: d.status, source: d.source, detail: d.detail }))).toEqual(
      job.details.map((d) => ({ status: d.status, source: d.source, detail: d.detail })),
    );
  }
  expect(await jobsOf('none')).toEqual([]);
});
