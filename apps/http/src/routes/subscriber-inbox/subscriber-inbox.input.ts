import { DomainError, type InboxFilter } from '@herald/domain';
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
    const { createdGte, createdLte, ...rest } = result.data;
    return { ...rest, createdGte: createdGte === undefined ? undefined : new Date(createdGte), createdLte: createdLte === undefined ? undefined : new Date(createdLte) };
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

/** The channel switches that were given (unknown keys reach the use case, which names them). */
export function channelFlags(body: Record<string, unknown>): Record<string, boolean> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Record<string, boolean>;
}
