// SQL fragments that apply a subscriber item (`SubscriberInput`, as JSON) to the subscribers table:
// shared by the bulk upsert (`upsertSubscribers`) and the trigger accept statement, so that a step
// run before an upsert commits sees the very row the upsert writes.

export const SUBSCRIBER_ATTRIBUTES = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;
const COLUMNS: Record<(typeof SUBSCRIBER_ATTRIBUTES)[number], string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  avatar: 'avatar',
  locale: 'locale',
  timezone: 'timezone',
};

// An item's `channels` (settings resolved to integrations, one per integration) merged into the stored
// ones: a setting for an integration already there merges its credentials field by field, device
// tokens accumulate without duplicates; the others keep their place and new ones are appended.
const MERGED_CHANNELS = `(
  SELECT COALESCE(jsonb_agg(m.v ORDER BY m.pos), '[]'::jsonb) FROM (
    SELECT COALESCE(n.v || jsonb_build_object('credentials', COALESCE(o.v->'credentials', '{}') || (n.v->'credentials') || CASE
             WHEN o.v->'credentials' ? 'deviceTokens' AND n.v->'credentials' ? 'deviceTokens' THEN jsonb_build_object('deviceTokens',
               (SELECT jsonb_agg(t ORDER BY k) FROM (SELECT DISTINCT ON (t) t, k FROM jsonb_array_elements((o.v->'credentials'->'deviceTokens') || (n.v->'credentials'->'deviceTokens')) WITH ORDINALITY d(t, k) ORDER BY t, k) u))
             ELSE '{}'::jsonb END), o.v) AS v, o.k AS pos
    FROM jsonb_array_elements(s.channels) WITH ORDINALITY o(v, k)
    LEFT JOIN jsonb_array_elements(i.e->'channels') n(v) ON n.v->>'_integrationId' = o.v->>'_integrationId'
    UNION ALL
    SELECT n.v, 1000000 + n.k FROM jsonb_array_elements(i.e->'channels') WITH ORDINALITY n(v, k)
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(s.channels) o(v) WHERE o.v->>'_integrationId' = n.v->>'_integrationId')
  ) m)`;

// A stored subscriber `s` after an item `i.e` is applied to it, column by column: a key missing from
// the item leaves the column as it is; a key present with null clears it.
const UPDATED_COLUMNS: [column: string, value: string][] = [
  ...SUBSCRIBER_ATTRIBUTES.map((a): [string, string] => [COLUMNS[a], `CASE WHEN i.e ? '${a}' THEN i.e->>'${a}' ELSE s.${COLUMNS[a]} END`]),
  ['data', `CASE WHEN i.e ? 'data' THEN NULLIF(i.e->'data', 'null'::jsonb) ELSE s.data END`],
  ['channels', `CASE WHEN i.e ? 'channels' THEN ${MERGED_CHANNELS} ELSE s.channels END`],
  ['version', 's.version + 1'],
  ['updated_at', 'now()'],
];

/**
 * SQL for the row, as JSON, that upserting item `i.e` onto the existing subscriber `s` writes: what a
 * step run before the upsert commits must see. The UPDATE below applies the same expressions.
 */
export const UPDATED_SUBSCRIBER_JSON = `to_jsonb(s.*) || jsonb_build_object(${UPDATED_COLUMNS.map(([column, value]) => `'${column}', ${value}`).join(', ')})`;

/** The columns a new subscriber takes from an item (`newSubscriberValues`). */
export const NEW_SUBSCRIBER_COLUMNS = `${SUBSCRIBER_ATTRIBUTES.map((a) => COLUMNS[a]).join(', ')}, data, channels`;
/** SQL: the values of `NEW_SUBSCRIBER_COLUMNS` for a new subscriber made from the item `item` (JSON; NULL: none given). */
export const newSubscriberValues = (item: string) =>
  `${SUBSCRIBER_ATTRIBUTES.map((a) => `${item}->>'${a}'`).join(', ')}, NULLIF(${item}->'data', 'null'::jsonb), COALESCE(${item}->'channels', '[]')`;

// An item without `channels` changes every column but the channels: its SQL needs no channels
// merge (`MERGED_CHANNELS`), whose subqueries PostgreSQL sets up on every run of a statement holding
// it, whether or not any row needs them (about a tenth of a millisecond per run of the trigger
// accept statement). So the SQL below comes with the merge (`channels`, for any item) or without
// (for items without them).
const appliedColumns = (channels: boolean) => (channels ? UPDATED_COLUMNS : UPDATED_COLUMNS.filter(([column]) => column !== 'channels'));

/** SQL: the SET list of an UPDATE of subscriber `s` applying item `i.e` (the same expressions). */
export const subscriberUpdateSet = ({ channels }: { channels: boolean }) => appliedColumns(channels).map(([column, value]) => `${column} = ${value}`).join(',\n    ');

/**
 * SQL: whether applying item `i.e` to the stored subscriber `s` changes any of its attributes (the
 * columns an item sets; not its version and update time, which an update moves on).
 */
export const subscriberChanges = ({ channels }: { channels: boolean }) => {
  const attributes = appliedColumns(channels).filter(([column]) => column !== 'version' && column !== 'updated_at');
  return `(${attributes.map(([column]) => `s.${column}`).join(', ')}) IS DISTINCT FROM (${attributes.map(([, value]) => value).join(', ')})`;
};
export const SUBSCRIBER_CHANGES = subscriberChanges({ channels: true });

/**
 * SQL: a SET list for subscriber `s` (the target of an INSERT's ON CONFLICT DO UPDATE, say) applying
 * the item that the expression `item` gives with the expressions of `subscriberUpdateSet`. With no
 * item (NULL) the row keeps its values, version and update time; an item moves the version on.
 */
export const subscriberUpdateSetFrom = (item: string, { channels }: { channels: boolean }) => {
  const columns = appliedColumns(channels);
  return `(${columns.map(([column]) => column).join(', ')}) = (
    SELECT ${columns.map(([column, value]) => (column === 'version' || column === 'updated_at' ? `CASE WHEN i.e IS NULL THEN s.${column} ELSE ${value} END` : value)).join(', ')}
    FROM (SELECT ${item} AS e) i)`;
};
