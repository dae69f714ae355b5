import { describe, expect, it } from 'vitest';
import type { InboxChange, InboxPatch } from '../entities/inbox';
import { DomainError } from '../errors';
import { inboxPatch } from './inbox-patch';

const NOW = new Date('2030-01-01T00:00:00Z');
const LATER = new Date('2030-01-02T00:00:00Z');

describe('inboxPatch', () => {
  const cases: Array<[InboxChange, InboxPatch]> = [
    [{ kind: 'read' }, { read: true, seen: true }],
    [{ kind: 'unread' }, { read: false }],
    [{ kind: 'seen' }, { seen: true }],
    [{ kind: 'archive' }, { archived: true, read: true, seen: true }],
    [{ kind: 'unarchive' }, { archived: false }],
    [{ kind: 'snooze', until: LATER }, { snoozedUntil: LATER, seen: true }],
    [{ kind: 'unsnooze' }, { snoozedUntil: null }],
  ];
  it.each(cases)('%o sets %o', (change, patch) => {
    expect(inboxPatch(change, NOW)).toEqual(patch);
  });

  it.each([NOW, new Date('2029-12-31T00:00:00Z'), new Date('not a date')])('refuses to snooze until %s', (until) => {
    expect(() => inboxPatch({ kind: 'snooze', until }, NOW)).toThrow(DomainError);
    try {
      inboxPatch({ kind: 'snooze', until }, NOW);
    } catch (error) {
      expect((error as DomainError).fields).toHaveProperty('snoozeUntil');
    }
  });
});
