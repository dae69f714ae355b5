import { describe, expect, it } from 'vitest';
import { detailStatusOf, statusAfterReceipt } from './receipt-status';

describe('statusAfterReceipt', () => {
  it.each([
    ['sent', 'delivered', 'delivered'],
    ['sent', 'bounced', 'bounced'],
    ['sent', 'failed', 'failed'],
    ['delivered', 'bounced', 'bounced'],
    ['delivered', 'delivered', null],
    ['bounced', 'delivered', null],
    ['failed', 'delivered', null],
    ['sent', 'opened', null],
    ['delivered', 'clicked', null],
    ['sent', 'deferred', null],
    ['sent', 'other', null],
  ] as const)('%s + %s -> %s', (current, event, expected) => {
    expect(statusAfterReceipt(current, event)).toBe(expected);
  });
});

describe('detailStatusOf', () => {
  it.each([
    ['delivered', 'Success'],
    ['opened', 'Success'],
    ['bounced', 'Failed'],
    ['failed', 'Failed'],
    ['deferred', 'Warning'],
  ] as const)('%s -> %s', (event, expected) => expect(detailStatusOf(event)).toBe(expected));
});
