import { token } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { wire } from './container';
import { all, type Infrastructure, type Wiring } from './wiring/binder';

interface Clock {
  now(): number;
}
const Clock = token<Clock>('test:Clock');
interface Listener {
  heard: string;
}
const Listener = token<Listener>('test:Listener');

class Greeter {
  constructor(
    readonly clock: Clock,
    readonly listeners: Listener[] = [],
  ) {}
}
class Ticker {
  constructor(readonly clock: Clock) {}
}

// The areas here use no infrastructure.
const nothing = {} as Infrastructure;

describe('wiring areas into the container', () => {
  it('resolves dependencies on first use, whatever order the areas bound them in', () => {
    const greeting: Wiring = (bind) => {
      bind.factory(Greeter, [Clock, all(Listener)], (clock, listeners) => new Greeter(clock, listeners));
      bind.construct(Ticker, [Clock]);
      bind.add(Listener, { heard: 'a' });
    };
    const clock: Wiring = (bind) => {
      bind.value(Clock, { now: () => 7 });
      bind.add(Listener, { heard: 'b' });
    };
    const resolver = wire([greeting, clock], nothing);
    const greeter = resolver.get(Greeter);
    expect(greeter.clock.now()).toBe(7);
    expect(greeter.listeners.map((l) => l.heard)).toEqual(['a', 'b']);
    expect(resolver.get(Greeter)).toBe(greeter);
    expect(resolver.get(Ticker).clock).toBe(greeter.clock);
  });

  it('refuses a key that two areas bind', () => {
    const clock: Wiring = (bind) => bind.value(Clock, { now: () => 1 });
    expect(() => wire([clock, clock], nothing)).toThrow('test:Clock is bound twice');
  });

  it('names a dependency that no area binds, before anything is resolved', () => {
    const ticking: Wiring = (bind) => bind.construct(Ticker, [Clock]);
    expect(() => wire([ticking], nothing)).toThrow('nothing binds test:Clock');
  });
});
