import { DomainError, readTags, type InboxFilter, type TagsSelector } from '@herald/domain';

/** A read's tag filter as groups; an empty list, `{or: []}` or `{and: []}` sets no condition, as the clients mean it. */
export function tagGroups(tags: TagsSelector | undefined, field = 'tags'): string[][] | undefined {
  if (tags === undefined) return undefined;
  const read = readTags(tags, field, true);
  if ('errors' in read) throw DomainError.validation(read.errors);
  return read.groups.length ? read.groups : undefined;
}

/** Groups in the client's own form (a list for one group, `{and: [{or}]}` for several), so @novu/js can compare it. */
export function presentTags(groups: string[][] | undefined): TagsSelector | undefined {
  if (!groups?.length) return undefined;
  return groups.length === 1 ? groups[0] : { and: groups.map((or) => ({ or })) };
}

/** The filter as the response echoes it: only what was given, timestamps as ISO strings. */
export function presentFilter(filter: InboxFilter): Record<string, unknown> {
  const { createdGte, createdLte, tags, ...rest } = filter;
  const echoed: Record<string, unknown> = { ...rest, tags: presentTags(tags) };
  if (createdGte) echoed.createdGte = createdGte.toISOString();
  if (createdLte) echoed.createdLte = createdLte.toISOString();
  return Object.fromEntries(Object.entries(echoed).filter(([, v]) => v !== undefined));
}
