import { describe, expect, it } from 'vitest';
import { ParamLayout } from './param-layout';

describe('ParamLayout', () => {
  const layout = new ParamLayout({ rows: 3, document: 1, pair: 2 });

  it('numbers the groups one after the other, from $1', () => {
    expect([layout.first('rows'), layout.first('document'), layout.first('pair'), layout.size]).toEqual([1, 4, 5, 6]);
    expect([layout.ref('rows'), layout.ref('rows', 2), layout.ref('document'), layout.ref('pair', 1)]).toEqual(['$1', '$3', '$4', '$6']);
  });

  it('refuses a parameter beyond its group', () => {
    expect(() => layout.ref('pair', 2)).toThrow(RangeError);
    expect(() => layout.ref('document', 1)).toThrow(RangeError);
  });

  it('lays the values out in the groups\' order, whatever order they are given in', () => {
    expect(layout.values({ pair: ['p', 'q'], document: '{}', rows: [null, 'b', 'c'] })).toEqual([null, 'b', 'c', '{}', 'p', 'q']);
  });

  it('takes a group of one parameter as its value, an array included', () => {
    expect(new ParamLayout({ list: 1, more: 2 }).values({ list: ['x', 'y', 'z'], more: [1, 2] })).toEqual([['x', 'y', 'z'], 1, 2]);
  });

  it('refuses a group given the wrong number of values, and a group of no parameters', () => {
    expect(() => layout.values({ rows: ['a', 'b'], document: null, pair: [1, 2] })).toThrow(/rows: 2 values for 3 parameters/);
    expect(() => new ParamLayout({ empty: 0 })).toThrow(RangeError);
  });
});
