import { describe, expect, it } from 'vitest';
import { FIRST_UUID, LAST_UUID, splitLane, wholeRange } from './fanout-lanes';

describe('splitLane', () => {
  it('covers the remaining range exactly, without gaps or overlaps, in order', () => {
    const [whole] = wholeRange();
    const lanes = splitLane({ ...whole, after: '7fa981f5-b816-42bb-a799-6245ee2831c5' }, 3);
    expect(lanes).toHaveLength(3);
    expect(lanes[0].after).toBe('7fa981f5-b816-42bb-a799-6245ee2831c5');
    expect(lanes[2].until).toBe(LAST_UUID);
    for (let i = 1; i < lanes.length; i++) {
      expect(lanes[i].after).toBe(lanes[i - 1].until);
      expect(lanes[i].after > lanes[i - 1].after).toBe(true);
    }
    expect(lanes.every((l) => !l.done && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(l.until))).toBe(true);
  });

  it('splits the whole space into equal parts', () => {
    const lanes = splitLane(wholeRange()[0], 4);
    expect(lanes.map((l) => l.after)).toEqual([FIRST_UUID, '3fffffff-ffff-ffff-ffff-ffffffffffff', '7fffffff-ffff-ffff-ffff-fffffffffffe', 'bfffffff-ffff-ffff-ffff-fffffffffffd']);
  });

  it('keeps a range too narrow to split, or a count below two, as one lane', () => {
    const narrow = { after: '00000000-0000-0000-0000-000000000001', until: '00000000-0000-0000-0000-000000000002', done: false };
    expect(splitLane(narrow, 4)).toEqual([narrow]);
    expect(splitLane(wholeRange()[0], 1)).toEqual(wholeRange());
  });
});
