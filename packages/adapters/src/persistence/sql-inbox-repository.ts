import type {
  Severity,
  InboxActionType,
  InboxFilter,
  InboxNotification,
  InboxOwner,
  InboxPatch,
  InboxRepository,
  InboxSelection,
  LiveCounts,
} from '@herald/domain';
import type { Pool } from 'pg';
import { isUuid, sameKeys, SqlParams } from './sql-params';

/** A snooze ends by itself when its time passes; no job has to wake it. */
const SNOOZED = '(m.is_snoozed AND (m.snoozed_until IS NULL OR m.snoozed_until > now()))';

const ACTION_COLUMN: Record<InboxActionType, string> = { primary: 'primary_action', secondary: 'secondary_action' };

/** The owner's in-app messages: every inbox statement is scoped to them. */
function scope(owner: InboxOwner, params: SqlParams): string {
  return `m.environment_id = ${params.p(owner.environmentId)} AND m.subscriber_id = ${params.p(owner.id)} AND m.channel = 'in_app'`;
}

function filterSql(f: InboxFilter, { p }: SqlParams): string {
  const where: string[] = [];
  const flag = (column: string, value: boolean | undefined) => {
    if (value !== undefined) where.push(value ? column : `NOT ${column}`);
  };
  flag('m.is_read', f.read);
  flag('m.is_seen', f.seen);
  flag('m.is_archived', f.archived);
  flag(SNOOZED, f.snoozed);
  if (f.severity?.length) where.push(`m.severity = ANY(${p(f.severity)}::text[])`);
  // One overlap test per group: the notification carries at least one tag of each.
  for (const group of f.tags ?? []) where.push(`m.tags && ${p(group)}::text[]`);
  if (f.data && Object.keys(f.data).length) where.push(`m.data @> ${p(JSON.stringify(f.data))}::jsonb`);
  // The partial GIN index covers messages with keys; say so, so the planner can use it.
  if (f.contextKeys) where.push(`${f.contextKeys.length ? 'cardinality(m.context_keys) > 0 AND ' : ''}${sameKeys('m.context_keys', p(f.contextKeys))}`);
  if (f.createdGte) where.push(`m.created_at >= ${p(f.createdGte)}::timestamptz`);
  if (f.createdLte) where.push(`m.created_at <= ${p(f.createdLte)}::timestamptz`);
  return where.length ? where.join(' AND ') : 'true';
}

function selectionSql(s: InboxSelection, params: SqlParams): string {
  const where = [filterSql({ tags: s.tags, data: s.data, contextKeys: s.contextKeys, read: s.onlyRead ? true : undefined }, params)];
  if (s.ids) {
    const ids = s.ids.filter(isUuid);
    where.push(ids.length ? `m.id = ANY(${params.p(ids)}::uuid[])` : 'false');
  }
  return where.join(' AND ');
}

/** SET clauses of a patch; the right-hand sides read the row's values before the update. */
function patchSql(patch: InboxPatch, { p }: SqlParams): string {
  const sets = ['updated_at = now()'];
  if (patch.read === true) sets.push('is_read = true, read_at = COALESCE(CASE WHEN is_read THEN read_at END, now())');
  if (patch.read === false) sets.push('is_read = false, read_at = NULL');
  if (patch.seen) sets.push('is_seen = true, first_seen_at = COALESCE(first_seen_at, now())');
  if (patch.archived === true) sets.push('is_archived = true, archived_at = COALESCE(CASE WHEN is_archived THEN archived_at END, now())');
  if (patch.archived === false) sets.push('is_archived = false, archived_at = NULL');
  if (patch.snoozedUntil) sets.push(`is_snoozed = true, snoozed_until = ${p(patch.snoozedUntil)}::timestamptz`);
  if (patch.snoozedUntil === null) sets.push('is_snoozed = false, snoozed_until = NULL');
  return sets.join(', ');
}

function toNotification(row: Record<string, any>, owner: InboxOwner): InboxNotification {
  const snoozedUntil: Date | null = row.snoozed_until;
  return {
    id: row.id,
    transactionId: row.transaction_id,
    subject: row.subject,
    body: row.body,
    to: owner,
    isRead: row.is_read,
    isSeen: row.is_seen,
    isArchived: row.is_archived,
    isSnoozed: row.is_snoozed && (snoozedUntil === null || snoozedUntil.getTime() > Date.now()),
    snoozedUntil,
    readAt: row.read_at,
    firstSeenAt: row.first_seen_at,
    archivedAt: row.archived_at,
    deliveredAt: row.delivered_at ?? [],
    createdAt: row.created_at,
    avatar: row.avatar,
    primaryAction: row.primary_action,
    secondaryAction: row.secondary_action,
    channelType: row.channel,
    tags: row.tags ?? [],
    data: row.data,
    redirect: row.redirect,
    workflow: row.workflow,
    severity: row.severity,
    contextKeys: row.context_keys ?? [],
  };
}

/** A subscriber's in-app inbox over the `messages` table, with one statement per operation. */
export class SqlInboxRepository implements InboxRepository {
  constructor(private readonly pool: Pool) {}

  async owner(environmentId: string, subscriberId: string): Promise<InboxOwner | null> {
    const { rows } = await this.pool.query(
      `SELECT id, subscriber_id, first_name, last_name, avatar FROM subscribers WHERE environment_id = $1 AND subscriber_id = $2`,
      [environmentId, subscriberId],
    );
    const r = rows[0];
    return r ? { id: r.id, environmentId, subscriberId: r.subscriber_id, firstName: r.first_name, lastName: r.last_name, avatar: r.avatar } : null;
  }

  async list(owner: InboxOwner, filter: InboxFilter, page: { limit: number; after?: string; offset: number }) {
    if (page.after !== undefined && !isUuid(page.after)) return { notifications: [], hasMore: false };
    const params = new SqlParams();
    const where = [scope(owner, params), filterSql(filter, params)];
    if (page.after !== undefined) {
      // Keyset on (createdAt, id) from the cursor notification, which must be the owner's.
      where.push(`(m.created_at, m.id) < (SELECT a.created_at, a.id FROM messages a WHERE a.id = ${params.p(page.after)}::uuid AND a.subscriber_id = ${params.p(owner.id)})`);
    }
    const { rows } = await this.pool.query(
      `SELECT m.* FROM messages m WHERE ${where.join(' AND ')}
       ORDER BY m.created_at DESC, m.id DESC OFFSET ${params.p(page.offset)} LIMIT ${params.p(page.limit + 1)}`,
      params.values,
    );
    return { notifications: rows.slice(0, page.limit).map((r) => toNotification(r, owner)), hasMore: rows.length > page.limit };
  }

  async count(owner: InboxOwner, filters: InboxFilter[]): Promise<number[]> {
    const params = new SqlParams();
    const where = scope(owner, params);
    const counts = filters.map((f, i) => `count(*) FILTER (WHERE ${filterSql(f, params)})::int AS c${i}`);
    const { rows } = await this.pool.query(`SELECT ${counts.join(', ')} FROM messages m WHERE ${where}`, params.values);
    return filters.map((_, i) => rows[0][`c${i}`] as number);
  }

  async find(owner: InboxOwner, notificationId: string, contextKeys?: string[]): Promise<InboxNotification | null> {
    if (!isUuid(notificationId)) return null;
    const params = new SqlParams();
    const where = `${scope(owner, params)} AND m.id = ${params.p(notificationId)}::uuid AND ${filterSql({ contextKeys }, params)}`;
    const { rows } = await this.pool.query(`SELECT m.* FROM messages m WHERE ${where}`, params.values);
    return rows[0] ? toNotification(rows[0], owner) : null;
  }

  async update(owner: InboxOwner, notificationId: string, patch: InboxPatch, contextKeys?: string[]): Promise<InboxNotification | null> {
    if (!isUuid(notificationId)) return null;
    const params = new SqlParams();
    const where = `${scope(owner, params)} AND m.id = ${params.p(notificationId)}::uuid AND ${filterSql({ contextKeys }, params)}`;
    const { rows } = await this.pool.query(`UPDATE messages m SET ${patchSql(patch, params)} WHERE ${where} RETURNING m.*`, params.values);
    return rows[0] ? toNotification(rows[0], owner) : null;
  }

  async updateMany(owner: InboxOwner, selection: InboxSelection, patch: InboxPatch): Promise<number> {
    const params = new SqlParams();
    const where = `${scope(owner, params)} AND ${selectionSql(selection, params)}`;
    const { rowCount } = await this.pool.query(`UPDATE messages m SET ${patchSql(patch, params)} WHERE ${where}`, params.values);
    return rowCount ?? 0;
  }

  async setActionCompleted(owner: InboxOwner, notificationId: string, action: InboxActionType, completed: boolean, contextKeys?: string[]) {
    if (!isUuid(notificationId)) return null;
    const column = ACTION_COLUMN[action];
    const params = new SqlParams();
    const where = `${scope(owner, params)} AND m.id = ${params.p(notificationId)}::uuid AND ${filterSql({ contextKeys }, params)}`;
    const { rows } = await this.pool.query(
      `UPDATE messages m SET ${column} = jsonb_set(m.${column}, '{isCompleted}', to_jsonb(${params.p(completed)}::boolean)), updated_at = now()
       WHERE ${where} AND jsonb_typeof(m.${column}) = 'object' RETURNING m.*`,
      params.values,
    );
    return rows[0] ? toNotification(rows[0], owner) : null;
  }

  async delete(owner: InboxOwner, selection: InboxSelection): Promise<number> {
    const params = new SqlParams();
    const where = `${scope(owner, params)} AND ${selectionSql(selection, params)}`;
    const { rowCount } = await this.pool.query(`DELETE FROM messages m WHERE ${where}`, params.values);
    return rowCount ?? 0;
  }

  async findByJobs(environmentId: string, jobIds: string[]): Promise<InboxNotification[]> {
    const ids = jobIds.filter(isUuid);
    if (!ids.length) return [];
    const { rows } = await this.pool.query(
      `SELECT m.*, s.subscriber_id AS owner_subscriber_id, s.first_name, s.last_name, s.avatar AS owner_avatar
       FROM messages m JOIN subscribers s ON s.id = m.subscriber_id
       WHERE m.environment_id = $1 AND m.job_id = ANY($2::uuid[]) AND m.channel = 'in_app'`,
      [environmentId, ids],
    );
    return rows.map((r) =>
      toNotification(r, { id: r.subscriber_id, environmentId, subscriberId: r.owner_subscriber_id, firstName: r.first_name, lastName: r.last_name, avatar: r.owner_avatar }),
    );
  }

  async liveCounts(environmentId: string, subscriberRefs: string[]): Promise<Map<string, LiveCounts>> {
    const refs = subscriberRefs.filter(isUuid);
    const counts = new Map<string, LiveCounts>();
    if (!refs.length) return counts;
    const { rows } = await this.pool.query(
      `SELECT m.subscriber_id, m.severity, count(*) FILTER (WHERE NOT m.is_read)::int AS unread, count(*) FILTER (WHERE NOT m.is_seen)::int AS unseen
       FROM messages m
       WHERE m.environment_id = $1 AND m.subscriber_id = ANY($2::uuid[]) AND m.channel = 'in_app'
         AND (NOT m.is_read OR NOT m.is_seen) AND NOT m.is_archived AND NOT ${SNOOZED}
       GROUP BY m.subscriber_id, m.severity`,
      [environmentId, refs],
    );
    for (const r of rows) {
      const entry = counts.get(r.subscriber_id) ?? { unread: {}, unseen: 0 };
      if (r.unread) entry.unread[r.severity as Severity] = r.unread;
      entry.unseen += r.unseen;
      counts.set(r.subscriber_id, entry);
    }
    return counts;
  }
}
