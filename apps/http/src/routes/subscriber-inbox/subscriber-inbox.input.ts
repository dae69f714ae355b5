import { DomainError, type InboxFilter } from '@herald/domain';
import { tagGroups } from '../inbox/inbox-filter';
import { CountFilterSchema } from './subscriber-inbox.schemas';

/** The count request's `filters`: parsed for the use case, and kept raw to echo back as the client sent them. */
export function parseCountFilters(text: string): { raw: Array<Record<string, unknown>>; filters: InboxFilter[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw DomainError.field('filters', 'must be a JSON array of filter objects', text);
  }
  const raw = (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
  const filters = raw.map((entry, i) => {
    const result = CountFilterSchema.safeParse(entry);
    if (!result.success) {
      throw DomainError.field(`filters.${i}`, result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; '), entry);
    }
    const { createdGte, createdLte, tags, ...rest } = result.data;
    const dates = { createdGte: createdGte === undefined ? undefined : new Date(createdGte), createdLte: createdLte === undefined ? undefined : new Date(createdLte) };
    return { ...rest, ...dates, tags: tagGroups(tags, `filters.${i}.tags`) };
  });
  return { raw, filters };
}

/** Bulk calls carry `data` as a JSON object in a string. */
export function parseBulkData(data: string | undefined): Record<string, unknown> | undefined {
  if (data === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw DomainError.field('data', 'must be a JSON object in a string', data);
}

const TAG_GROUP_KEY = /^tags\[(\d{1,2})\]\[\]$/;

/**
 * The list's tag filter from the query @novu/js builds: `tags[]=a&tags[]=b` (any of them) or
 * `tags[0][]=a&tags[1][]=b` (one of each numbered group).
 */
export function tagGroupsFromQuery(queries: Record<string, string[]>): string[][] | undefined {
  const numbered = Object.entries(queries).flatMap(([key, values]) => {
    const match = TAG_GROUP_KEY.exec(key);
    return match ? [{ index: Number(match[1]), values }] : [];
  });
  const listed = [...(queries['tags[]'] ?? []), ...(queries.tags ?? [])];
  const groups = [...(listed.length ? [listed] : []), ...numbered.sort((a, b) => a.index - b.index).map((g) => g.values)];
  return tagGroups({ and: groups.map((or) => ({ or })) });
}
