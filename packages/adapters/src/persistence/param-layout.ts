/** Per group of a layout, its values: the value itself for a group of one parameter, else one per parameter. */
export type GroupValues<G extends Record<string, number>> = { [K in keyof G]: G[K] extends 1 ? unknown : readonly unknown[] };

/**
 * The positional parameters of a large statement as named groups, in order, each of a fixed number
 * of parameters: the SQL names a group's place (`ref`, or `first` for helpers that number a run of
 * columns) and the caller gives the values by group (`values`), so that neither side counts `$n`
 * offsets. The SQL text is the same as if the positions were written out.
 */
export class ParamLayout<const G extends Record<string, number>> {
  private readonly starts = new Map<keyof G, number>();
  /** The statement's number of parameters. */
  readonly size: number;

  constructor(private readonly groups: G) {
    let next = 1;
    for (const [group, count] of Object.entries(groups)) {
      if (!Number.isInteger(count) || count < 1) throw new RangeError(`parameter group ${group}: ${count} parameters`);
      this.starts.set(group, next);
      next += count;
    }
    this.size = next - 1;
  }

  /** The position of the group's first parameter (from 1). */
  first(group: keyof G): number {
    return this.starts.get(group)!;
  }

  /** The group's parameter as SQL (`$n`): its `index`th (from 0) in a group of several. */
  ref(group: keyof G, index = 0): string {
    if (index < 0 || index >= this.groups[group]) throw new RangeError(`parameter group ${String(group)} has no parameter ${index}`);
    return `$${this.first(group) + index}`;
  }

  /** The statement's values, in order, from the values of each group; a group given the wrong number of values throws. */
  values(byGroup: GroupValues<G>): unknown[] {
    const out = new Array<unknown>(this.size);
    for (const [group, at] of this.starts) {
      const count = this.groups[group];
      const given = byGroup[group];
      if (count === 1) {
        out[at - 1] = given;
        continue;
      }
      const list = given as readonly unknown[];
      if (list.length !== count) throw new RangeError(`parameter group ${String(group)}: ${list.length} values for ${count} parameters`);
      for (let i = 0; i < count; i++) out[at - 1 + i] = list[i];
    }
    return out;
  }
}
