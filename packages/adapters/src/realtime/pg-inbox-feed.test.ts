import { describe, expect, it } from 'vitest';
import { packInboxEvents } from './pg-inbox-feed';

describe('packInboxEvents', () => {
  it('fits any number of events into NOTIFY payloads under 8000 bytes, losing none', () => {
    const events = Array.from({ length: 500 }, (_, i) => ({
      environmentId: '6f1d2c1e-0000-4000-8000-000000000000',
      subscriberRef: `6f1d2c1e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      jobIds: [`7f1d2c1e-0000-4000-8000-${String(i).padStart(12, '0')}`],
    }));
    const payloads = packInboxEvents(events);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    expect(payloads.flatMap((p) => JSON.parse(p) as unknown[])).toHaveLength(500);
    expect(packInboxEvents([])).toEqual([]);
  });

  it('splits an event with more job ids than one payload holds, keeping every id for its subscriber', () => {
    const jobIds = Array.from({ length: 500 }, (_, i) => `7f1d2c1e-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const payloads = packInboxEvents([
      { environmentId: 'env', subscriberRef: 'busy', jobIds },
      { environmentId: 'env', subscriberRef: 'other', jobIds: [] },
    ]);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const items = payloads.flatMap((p) => JSON.parse(p) as Array<[string, string, string[]]>);
    expect(items.filter(([, ref]) => ref === 'busy').flatMap(([, , ids]) => ids)).toEqual(jobIds);
    expect(items.filter(([, ref]) => ref === 'other')).toEqual([['env', 'other', []]]);
  });
});
