/** One range of a topic fan-out: subscribers with internal ids in (after, until], expanded in order. */
export interface FanoutLane {
  after: string;
  until: string;
  done: boolean;
}

export const FIRST_UUID = '00000000-0000-0000-0000-000000000000';
export const LAST_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** The whole id space as one lane: how every fan-out starts. */
export function wholeRange(): FanoutLane[] {
  return [{ after: FIRST_UUID, until: LAST_UUID, done: false }];
}

const toBigInt = (uuid: string) => BigInt(`0x${uuid.replaceAll('-', '')}`);

function toUuid(value: bigint): string {
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Splits a lane's remaining range into `count` lanes of equal width. Subscriber ids are random
 * (v4), so equal widths hold about equal numbers of subscribers, and the lanes can be expanded at
 * once. Together the lanes cover exactly (after, until].
 */
export function splitLane(lane: FanoutLane, count: number): FanoutLane[] {
  const from = toBigInt(lane.after);
  const to = toBigInt(lane.until);
  const width = (to - from) / BigInt(count);
  if (count < 2 || width < 1n) return [lane];
  return Array.from({ length: count }, (_, i) => ({
    after: toUuid(from + width * BigInt(i)),
    until: i === count - 1 ? lane.until : toUuid(from + width * BigInt(i + 1)),
    done: false,
  }));
}
