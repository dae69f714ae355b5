import type { JsonObject } from '../entities/delivery';
import type { InboxSelection } from '../entities/inbox';
import type { FieldErrors } from '../errors';

export interface TagOrGroup {
  or: string[];
}

/**
 * A tag filter in the forms the official clients send: a list or `{or: [...]}` (any of these tags),
 * `{and: [...]}` (every entry must match; an entry is a tag or an `{or: [...]}` group).
 */
export type TagsSelector = string[] | TagOrGroup | { and: Array<string | TagOrGroup> };

// The bounds @novu/js itself checks a tag filter against before sending it.
export const TAG_GROUPS_MAX = 30;
export const TAGS_PER_GROUP_MAX = 100;
export const TAGS_TOTAL_MAX = 200;

/**
 * Tag groups (AND of OR), or the errors; `[]` means no tag condition. A list, `{or}` or `{and}` with
 * nothing in it sets no condition when `emptyMeansAny` (a read, as the clients mean it), else it is
 * an error: a change must not widen to everything.
 */
export function readTags(tags: TagsSelector, field = 'tags', emptyMeansAny = false): { groups: string[][] } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  let groups: Array<{ at: string; tags: string[] }>;
  if (Array.isArray(tags)) groups = [{ at: field, tags }];
  else if ('or' in tags) groups = [{ at: `${field}.or`, tags: tags.or }];
  else groups = tags.and.map((entry, i) => (typeof entry === 'string' ? { at: `${field}.and.${i}`, tags: [entry] } : { at: `${field}.and.${i}.or`, tags: entry.or }));
  const empty = Array.isArray(tags) ? !tags.length : 'or' in tags ? !tags.or.length : !tags.and.length;
  if (empty) return emptyMeansAny ? { groups: [] } : { errors: { [groups.length ? groups[0].at : field]: { messages: ['lists no tag: it would select nothing'], value: tags } } };
  for (const group of groups) {
    if (!group.tags.length) errors[group.at] = { messages: ['lists no tag: it would select nothing'], value: group.tags };
    else if (group.tags.length > TAGS_PER_GROUP_MAX) errors[group.at] = { messages: [`at most ${TAGS_PER_GROUP_MAX} tags in one group`], value: group.tags.length };
    else if (group.tags.some((t) => t.trim() === '')) errors[group.at] = { messages: ['a tag must not be empty'], value: group.tags };
  }
  if (groups.length > TAG_GROUPS_MAX) errors[field] = { messages: [`at most ${TAG_GROUPS_MAX} tag groups`], value: groups.length };
  else if (groups.reduce((n, g) => n + g.tags.length, 0) > TAGS_TOTAL_MAX) errors[field] = { messages: [`at most ${TAGS_TOTAL_MAX} tags in all`], value: tags };
  return Object.keys(errors).length ? { errors } : { groups: groups.map((g) => g.tags) };
}

/** What a bulk inbox request names, as the client sent it (`data` already parsed from its JSON string). */
export interface InboxSelector {
  notificationIds?: string[];
  tags?: TagsSelector;
  data?: JsonObject;
  contextKeys?: string[];
}

/** The empty forms one route honours, because an official client sends exactly them for "all". */
export interface SelectAllForms {
  /** `{}` (or no body) selects every notification: `readAll()`, `deleteAll()`... without a filter. */
  empty: boolean;
  /** `tags: []` sets no tag condition: the Inbox's own menu sends it from a tab without tags. */
  emptyTagList: boolean;
}

/**
 * The notifications a bulk request selects, exactly as named. An empty selector means "all" only in a
 * form the route honours; any other empty part (no ids, no tags, an empty data filter) is an error,
 * never a wider selection.
 */
export function resolveInboxSelection(selector: InboxSelector, forms: SelectAllForms): { selection: InboxSelection } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const selection: InboxSelection = {};
  const given = Object.entries(selector).filter(([, v]) => v !== undefined);
  if (!given.length) {
    if (forms.empty) return { selection };
    return { errors: { body: { messages: ['selects nothing: name notificationIds, tags or data'], value: selector } } };
  }
  if (selector.notificationIds !== undefined) {
    if (selector.notificationIds.length) selection.ids = selector.notificationIds;
    else errors.notificationIds = { messages: ['lists no id: it would select nothing'], value: [] };
  }
  if (selector.tags !== undefined) {
    const emptyList = Array.isArray(selector.tags) && selector.tags.length === 0;
    if (emptyList && !forms.emptyTagList) errors.tags = { messages: ['lists no tag: it would select nothing; leave tags out to select all'], value: [] };
    else {
      const read = readTags(selector.tags, 'tags', emptyList);
      if ('errors' in read) Object.assign(errors, read.errors);
      else if (read.groups.length) selection.tags = read.groups;
    }
  }
  if (selector.data !== undefined) {
    if (Object.keys(selector.data).length) selection.data = selector.data;
    else errors.data = { messages: ['names no attribute: it would select nothing; leave data out to select all'], value: selector.data };
  }
  if (selector.contextKeys !== undefined) selection.contextKeys = selector.contextKeys;
  return Object.keys(errors).length ? { errors } : { selection };
}
