import { describe, expect, it } from 'vitest';
import { readTags, resolveInboxSelection, type InboxSelector, type SelectAllForms } from './inbox-selection';

const API_ROUTE: SelectAllForms = { empty: true, emptyTagList: false };
const INBOX_MENU_ROUTE: SelectAllForms = { empty: true, emptyTagList: true };
const NO_ALL: SelectAllForms = { empty: false, emptyTagList: false };

describe('resolveInboxSelection', () => {
  // [case, selector, forms, selection it resolves to, or the fields it refuses]
  it.each<[string, InboxSelector, SelectAllForms, object | null, string[]]>([
    ['{} where the client sends it for all', {}, API_ROUTE, {}, []],
    ['{} where no client sends it', {}, NO_ALL, null, ['body']],
    ['tags [] from the Inbox menu', { tags: [] }, INBOX_MENU_ROUTE, {}, []],
    ['tags [] with data from an Inbox tab', { tags: [], data: { kind: 'x' } }, INBOX_MENU_ROUTE, { data: { kind: 'x' } }, []],
    ['tags [] where no client sends it', { tags: [] }, API_ROUTE, null, ['tags']],
    ['tags {or: []}', { tags: { or: [] } }, INBOX_MENU_ROUTE, null, ['tags.or']],
    ['tags {and: []}', { tags: { and: [] } }, INBOX_MENU_ROUTE, null, ['tags']],
    ['tags {and: [{or: []}]}', { tags: { and: [{ or: ['a'] }, { or: [] }] } }, API_ROUTE, null, ['tags.and.1.or']],
    ['an empty tag', { tags: ['billing', ' '] }, API_ROUTE, null, ['tags']],
    ['data {}', { data: {} }, INBOX_MENU_ROUTE, null, ['data']],
    ['notificationIds []', { notificationIds: [] }, API_ROUTE, null, ['notificationIds']],
    ['every empty part at once', { notificationIds: [], tags: { or: [] }, data: {} }, API_ROUTE, null, ['data', 'notificationIds', 'tags.or']],
    ['a tag list: any of them', { tags: ['a', 'b'] }, API_ROUTE, { tags: [['a', 'b']] }, []],
    ['{or}: any of them', { tags: { or: ['a', 'b'] } }, API_ROUTE, { tags: [['a', 'b']] }, []],
    ['{and} of tags: all of them', { tags: { and: ['billing'] } }, API_ROUTE, { tags: [['billing']] }, []],
    ['{and} of {or} groups', { tags: { and: [{ or: ['a', 'b'] }, 'c'] } }, API_ROUTE, { tags: [['a', 'b'], ['c']] }, []],
    ['ids, data and context keys', { notificationIds: ['n1'], data: { a: 1 }, contextKeys: [] }, NO_ALL, { ids: ['n1'], data: { a: 1 }, contextKeys: [] }, []],
  ])('%s', (_, selector, forms, selection, refused) => {
    const result = resolveInboxSelection(selector, forms);
    if (selection) expect(result).toEqual({ selection });
    else expect('errors' in result && Object.keys(result.errors).sort()).toEqual(refused);
  });
});

describe('readTags', () => {
  it('bounds a filter as @novu/js does: 30 groups, 100 tags a group, 200 in all', () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect('errors' in readTags({ and: tags(31) })).toBe(true);
    expect('errors' in readTags(tags(101))).toBe(true);
    expect('errors' in readTags({ and: [{ or: tags(100) }, { or: tags(100) }, 'x'] })).toBe(true);
    expect(readTags({ and: [{ or: tags(100) }, { or: tags(100) }] })).toEqual({ groups: [tags(100), tags(100)] });
    expect(readTags([], 'tags', true)).toEqual({ groups: [] });
    expect(readTags({ or: [] }, 'tags', true)).toEqual({ groups: [] });
    expect(readTags({ and: [] }, 'filters.0.tags')).toEqual({ errors: { 'filters.0.tags': expect.anything() } });
  });
});
