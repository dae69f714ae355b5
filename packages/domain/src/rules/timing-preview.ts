import type { JsonObject } from './control-reader';
import { nextTick, type TimedSchedule } from './schedule';

/**
 * The spec's preview of a delay or digest step: amount and unit always (a timed step previews the
 * wait until its next tick from `now`, in seconds), digestKey and lookBackWindow when set, then the
 * other controls as configured (type, cron, timed, dynamicKey).
 */
export function timingPreview(controls: JsonObject, now: Date = new Date()): JsonObject {
  const { amount, unit, digestKey, lookBackWindow, ...rest } = controls;
  let preview: JsonObject = { amount: typeof amount === 'number' ? amount : 0, unit: typeof unit === 'string' ? unit : 'seconds' };
  if (typeof amount !== 'number' && controls.type === 'timed') {
    const tick = nextTick({ cron: controls.cron as string | undefined, timed: controls.timed as TimedSchedule | undefined }, now);
    if (tick) preview = { amount: Math.ceil((tick.getTime() - now.getTime()) / 1000), unit: 'seconds' };
  }
  return { ...preview, ...(typeof digestKey === 'string' ? { digestKey } : {}), ...(lookBackWindow ? { lookBackWindow } : {}), ...rest };
}
