import { RecoverDeadWorkers, WorkerRegistry, type RecoveredWork } from '@herald/domain';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALONE_CHECK_MS, DEAD_WORKER_CHECK_MS, watchForDeadWorkers } from './dead-worker-watch';

/** A registry whose checks answer as told, one by one, and record what happened in order. */
class ScriptedRegistry implements WorkerRegistry {
  readonly workerId = 'me';
  readonly events: string[] = [];
  /** What each next check does: the number of others registered, or an error to fail with. */
  readonly answers: Array<number | Error | Promise<number>> = [];

  async join() {
    this.events.push('join');
  }
  async recoverDead(): Promise<RecoveredWork> {
    const answer = this.answers.shift() ?? 0;
    this.events.push('check');
    if (answer instanceof Error) throw answer;
    const others = await answer;
    this.events.push('checked');
    return { workers: 0, events: 0, notifications: 0, others };
  }
  async leave() {
    this.events.push('leave');
  }
}

function resolverFor(registry: ScriptedRegistry) {
  const recover = new RecoverDeadWorkers(registry);
  return { get: <T,>(token: unknown) => (token === WorkerRegistry ? registry : recover) as T };
}

const logger = pino({ level: 'silent' });
const checks = (registry: ScriptedRegistry) => registry.events.filter((e) => e === 'check').length;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('watchForDeadWorkers', () => {
  it('checks every 2 s while alone and every second while others are registered', async () => {
    const registry = new ScriptedRegistry();
    registry.answers.push(0, 0, 2, 2);
    const watch = await watchForDeadWorkers(resolverFor(registry), logger);
    expect(checks(registry)).toBe(1);
    await vi.advanceTimersByTimeAsync(ALONE_CHECK_MS - 1);
    expect(checks(registry)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(checks(registry)).toBe(2);
    await vi.advanceTimersByTimeAsync(ALONE_CHECK_MS);
    expect(checks(registry)).toBe(3);
    // That check found others: the next comes a second later.
    await vi.advanceTimersByTimeAsync(DEAD_WORKER_CHECK_MS);
    expect(checks(registry)).toBe(4);
    watch.stop();
    await vi.advanceTimersByTimeAsync(10 * ALONE_CHECK_MS);
    expect(checks(registry)).toBe(4);
  });

  it('starts when the first check fails, and checks again a second later', async () => {
    const registry = new ScriptedRegistry();
    registry.answers.push(new Error('database unavailable'), 0);
    const watch = await watchForDeadWorkers(resolverFor(registry), logger);
    await vi.advanceTimersByTimeAsync(DEAD_WORKER_CHECK_MS);
    expect(checks(registry)).toBe(2);
    watch.stop();
  });

  it('leaves only after the check in flight has finished', async () => {
    const registry = new ScriptedRegistry();
    let finish!: (others: number) => void;
    registry.answers.push(0, new Promise<number>((resolve) => (finish = resolve)));
    const watch = await watchForDeadWorkers(resolverFor(registry), logger);
    await vi.advanceTimersByTimeAsync(ALONE_CHECK_MS);
    watch.stop();
    const left = watch.leave();
    await vi.advanceTimersByTimeAsync(100);
    expect(registry.events).toEqual(['join', 'check', 'checked', 'check']);
    finish(0);
    await left;
    expect(registry.events).toEqual(['join', 'check', 'checked', 'check', 'checked', 'leave']);
  });
});
